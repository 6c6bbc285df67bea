/**
 * Control characters in user text never reach the terminal raw: a label
 * must not clear the screen, set the window title or reverse the text that
 * follows it. Before, labels, seeds and shard fields were printed as typed,
 * and JSON.stringify in error messages escaped C0 but not DEL, C1 or the
 * Unicode separators and bidi controls.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJson } from '../../src/output/json.js';
import { terminalSafe } from '../../src/output/terminal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('terminal');

/** Every character class that must not reach a terminal, with what it does there. */
const HOSTILE: Array<[string, string]> = [
  ['\x1b]0;pwned\x07', 'OSC: sets the window title (ESC … BEL)'],
  ['\x1b[2J', 'CSI: clears the screen'],
  ['\x9b2J', 'C1 CSI: clears the screen on terminals that read 8-bit controls'],
  ['\x7f', 'DEL'],
  ['\r', 'carriage return: overwrites the line'],
  ['\b', 'backspace'],
  ['\u202e', 'right-to-left override: reverses what follows'],
  ['\u2066', 'left-to-right isolate'],
  ['\u2028', 'line separator'],
  ['\u2029', 'paragraph separator'],
  ['\u200f', 'right-to-left mark'],
];
/** Characters no output may contain raw: all of the above but the line feed (and a CR before a LF, a CSV line end). */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('terminalSafe', () => {
  it.each(HOSTILE)('%j (%s) is shown as a visible escape', (text) => {
    const safe = terminalSafe(`a${text}b`);
    expect(safe).not.toMatch(RAW);
    expect(safe.startsWith('a\\') && safe.endsWith('b')).toBe(true);
  });

  it('keeps line feeds, CRLF line ends, tabs escaped, and ordinary Unicode', () => {
    expect(terminalSafe('a\nb\r\nc\td — ±½ “q”')).toBe('a\nb\r\nc\\x09d — ±½ “q”');
  });
});

describe('user text on the terminal', () => {
  for (const [text, what] of HOSTILE) {
    it(`compare labels holding ${what}`, async () => {
      const { status, stdout, stderr } = await cli(
        'compare',
        'reserves',
        '--exact',
        '--variant',
        `A${text}x: target=7`,
        '--variant',
        'B: target=6',
      );
      expect(status).toBe(0);
      expect(stdout).not.toMatch(RAW);
      expect(stderr).not.toMatch(RAW);
      // Shown, not dropped: the label is still recognisable.
      expect(stdout).toContain(`A${terminalSafe(text)}x`);
    });
  }

  it('a seed holding escapes, in run', async () => {
    const { status, stdout } = await cli(
      'run',
      'infinity',
      '--trials',
      '1000',
      '--threads',
      '1',
      '--seed',
      `s\x1b]0;pwned\x07\u202e`,
    );
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW);
    expect(stdout).toContain('seed s\\x1b]0;pwned\\x07\\u202e');
  });

  it('error messages quoting user input: a bad --set, a bad --variant, an unknown option', async () => {
    for (const argv of [
      ['run', 'reserves', '--set', 'squads=\x1b[2J\u2028'],
      ['compare', 'reserves', '--variant', 'A\x9b: bogus=1', '--variant', 'B: target=6'],
      ['run', 'reserves', '--\x1b[2J'],
      ['run', 'reserves\x1b]0;x\x07'],
    ]) {
      const { status, stdout, stderr } = await cli(...argv);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).not.toMatch(RAW);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('shard fields printed by merge: a seed edited to hold escapes', async () => {
    const shard = join(folder, 'evil.json');
    expect(
      (
        await cli(
          'shard',
          'infinity',
          '--trials',
          '1000',
          '--shard',
          '0/1',
          '--threads',
          '1',
          '--seed',
          'x',
          '--out',
          shard,
          '--quiet',
        )
      ).status,
    ).toBe(0);
    const parsed = JSON.parse(readFileSync(shard, 'utf8'));
    parsed.seed = 'x\x1b[2J\u2028';
    writeFileSync(shard, JSON.stringify(parsed));
    const { status, stdout } = await cli('merge', shard);
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW);
    expect(stdout).toContain('seed x\\x1b[2J\\u2028');
  });

  it('--json - is escaped as JSON (\\u escapes), so the pipe reads back the exact label', async () => {
    const label = `A\x7f\x9b\u2028\u202e`;
    const { status, stdout } = await cli(
      'compare',
      'reserves',
      '--exact',
      '--variant',
      `${label}: target=7`,
      '--variant',
      'B: target=6',
      '--json',
      '-',
    );
    expect(status).toBe(0);
    expect(stdout).not.toMatch(RAW);
    expect(JSON.parse(stdout).variants[0].label).toBe(label);
    expect(JSON.parse(toJson({ label }))).toEqual({ label });
  });
});

/**
 * Line breaks in user text. terminalSafe keeps line feeds, as muster's own
 * output has many; a line feed or carriage return inside a label, a path or a
 * value must not start a line of its own (forging "muster: …") nor, with a CR,
 * return to the start of a line and overwrite it. Before, "wrote <path>" and
 * table cells printed them as typed, and a one-line error kept the CR of CRLF.
 */
describe('line breaks in user text stay inside their line', () => {
  const forged = (text: string) =>
    text.split('\n').some((line) => line.startsWith('muster: forged') || line.startsWith('forged'));

  it('a path with a line feed in "wrote …"', async () => {
    const path = join(folder, 'x\nmuster: forged.json');
    const { status, stderr } = await cli('run', 'infinity', '--exact', '--json', path);
    expect(status).toBe(0);
    expect(forged(stderr)).toBe(false);
    expect(stderr).toContain(`wrote ${folder}/x\\x0amuster: forged.json\n`);
    expect(readFileSync(path, 'utf8')).toContain('"rule": "infinity"');
  });

  it('a comparison label with a line feed: one table row, aligned', async () => {
    const { status, stdout } = await cli(
      'compare',
      'reserves',
      '--exact',
      '--variant',
      'A\nforged: target=7',
      '--variant',
      'B: target=6',
    );
    expect(status).toBe(0);
    expect(forged(stdout)).toBe(false);
    expect(stdout).toContain('A\\x0aforged');
    // Every line of a table part has the width of its rule line or less: no cell broke out of its row.
    const table = stdout
      .split('\n\n')
      .find((part) => part.includes('─'))!
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('('));
    const ruleWidth = [...table[1]].length;
    for (const line of table) expect([...line].length).toBeLessThanOrEqual(ruleWidth);
  });

  it('a CR (alone or before a LF) in a path an error quotes: escaped, the line not overwritten', async () => {
    for (const name of ['missing\rmuster: forged', 'missing\r\nmuster: forged']) {
      const { status, stderr } = await cli('run', 'infinity', '--exact', '--json', join(folder, name, 'x.json'));
      expect(status).toBe(2);
      expect(stderr).not.toMatch(/\r/);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/\\x0d/);
    }
  });

  it('terminalLine escapes every line end; terminalSafe keeps LF and CRLF', async () => {
    const { terminalLine } = await import('../../src/output/terminal.js');
    expect(terminalLine('a\nb\r\nc\rd')).toBe('a\\x0ab\\x0d\\x0ac\\x0dd');
    expect(terminalSafe('a\nb\r\nc\rd')).toBe('a\nb\r\nc\\x0dd');
  });
});

describe("muster's own control characters on stderr: the progress bar's", () => {
  it('a bar and both ways of clearing it pass through; user text after a CR is still escaped', async () => {
    const { terminalIo } = await import('../../src/output/terminal.js');
    const written: string[] = [];
    const io = terminalIo({ out: () => undefined, err: (text: string) => written.push(text), errIsTTY: true });
    io.err('\r####----  50%');
    io.err('\r\x1b[2K');
    // The plain bar (TERM=dumb, NO_COLOR) clears with spaces: its second CR showed as \x0d before.
    io.err(`\r${' '.repeat(12)}\r`);
    io.err('\rlabel \x1b]0;x\x07 \r');
    expect(written).toEqual(['\r####----  50%', '\r\x1b[2K', `\r${' '.repeat(12)}\r`, '\rlabel \\x1b]0;x\\x07 \\x0d']);
  });
});
