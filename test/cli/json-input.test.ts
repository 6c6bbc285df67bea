/**
 * The JSON muster reads back (shards of runs, sweeps and comparisons,
 * checkpoints) is parsed strictly: JSON.parse took a key given twice (the
 * last one wins, so a file showed one tally to a reader and merged
 * another), `__proto__` keys, and a file
 * nested 100,000 deep overflowed the stack of the code that walked it (an
 * internal error, exit 1). Each hostile shape below is refused in one line
 * naming the file, exit 2, for every kind of file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonInputError, MAX_JSON_DEPTH, parseJsonInput } from '../../src/input/parse-json.js';
import { sealCheckpoint } from '../support/checkpoint-seal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('json-input');
const file = (name: string) => join(folder, name);
const RUN = ['--trials', '70k', '--seed', 'json', '--threads', '1', '--quiet'];

/**
 * The text of a file with `edit` applied to its JSON text (keys written by hand, as JSON.stringify cannot repeat
 * one), the refusal expected, and whether the JSON reader itself refuses it (else the file's own checks do).
 */
type Hostile = [string, (text: string) => string, RegExp, 'parser'?];

const deep = (depth: number, open: string, close: string) => `${open.repeat(depth)}1${close.repeat(depth)}`;
const HOSTILE: Hostile[] = [
  // The fields muster trusts, given twice: a reader that takes the first sees another file than one that takes the
  // last.
  [
    'a top-level key twice',
    (text) => text.replace(/^\{/, '{"format":"decoy",'),
    /the key "format" twice in one object at line \d+, column \d+/,
    'parser',
  ],
  [
    'a nested key twice',
    (text) => text.replace(/"(first|index)":/, '"$1":0,"$1":'),
    /the key "(first|index)" twice in one object/,
    'parser',
  ],
  [
    'a key twice, once escaped',
    (text) => text.replace(/^\{/, '{"f\\u006frmat":"decoy",'),
    /the key "format" twice/,
    'parser',
  ],
  [
    '__proto__ at the top',
    (text) => text.replace(/^\{/, '{"__proto__":{"polluted":true},'),
    /the key "__proto__", which no muster file has/,
    'parser',
  ],
  ['__proto__ escaped', (text) => text.replace(/^\{/, '{"__proto\\u005f_":{"x":1},'), /the key "__proto__"/, 'parser'],
  // A rule may name a parameter `constructor` (src/keyed.ts reads own entries only): the field checks refuse an unknown
  // one.
  [
    'constructor nested',
    (text) => text.replace(/"(params|args|shard)":\s*\{/, '"$1":{"constructor":{"prototype":{"x":1}},'),
    /constructor|options that are not its own|unknown fields/,
  ],
  ['prototype', (text) => text.replace(/^\{/, '{"prototype":1,'), /prototype|unknown fields|not its own/],
  [
    'arrays nested 100,000 deep',
    (text) => text.replace(/^\{/, `{"deep":${deep(100_000, '[', ']')},`),
    new RegExp(`nesting deeper than ${MAX_JSON_DEPTH} levels`),
    'parser',
  ],
  [
    'objects nested 100,000 deep',
    (text) => text.replace(/^\{/, `{"deep":${deep(100_000, '{"a":', '}')},`),
    /nesting deeper than/,
    'parser',
  ],
  ['trailing text', (text) => `${text.trimEnd()} {}`, /more text after the JSON value/, 'parser'],
  ['a byte-order mark', (text) => `\ufeff${text}`, /unexpected/, 'parser'],
];

async function expectRefused(
  argv: string[],
  name: string,
  what: string,
  message: RegExp,
  by?: 'parser',
): Promise<void> {
  const result = await cli(...argv);
  expect(result.status, what).toBe(2);
  if (by === 'parser')
    expect(result.stderr, what).toMatch(new RegExp(`^muster: ${name}: ".*" is not JSON as muster writes it \\(.*`));
  else expect(result.stderr, what).toMatch(new RegExp(`^muster: ${name}: `));
  expect(result.stderr, what).toMatch(message);
  expect(result.stderr.split('\n'), what).toHaveLength(2);
}

describe('hostile JSON in every file muster reads back', () => {
  it('a run shard, a sweep shard and a comparison shard', async () => {
    expect((await cli('shard', 'reserves', ...RUN, '--shard', '0/1', '--out', file('run.json'))).status).toBe(0);
    expect(
      (await cli('sweep', 'reserves', '--vary', 'command=2..3', ...RUN, '--shard', '0/1', '--out', file('sweep.tally')))
        .status,
    ).toBe(0);
    expect(
      (
        await cli(
          'compare',
          'reserves',
          '--variant',
          'A: target=7',
          '--variant',
          'B: target=6',
          ...RUN,
          '--shard',
          '0/1',
          '--out',
          file('compare.tally'),
        )
      ).status,
    ).toBe(0);
    for (const name of ['run.json', 'sweep.tally', 'compare.tally']) {
      const text = readFileSync(file(name), 'utf8');
      expect((await cli('merge', file(name), '--json', file(`${name}.merged.json`))).status).toBe(0);
      for (const [what, edit, message, by] of HOSTILE) {
        const edited = edit(text);
        expect(edited, `${name}: ${what} edits nothing`).not.toBe(text);
        const path = file(`hostile-${name}`);
        writeFileSync(path, edited);
        await expectRefused(['merge', path, '--json', file('never.json')], 'files', `${name}: ${what}`, message, by);
      }
    }
    // JSON.parse keeps the last of two keys: a decoy tally first, the real one last, and the file read the real one.
    const shard = readFileSync(file('run.json'), 'utf8');
    writeFileSync(
      file('decoy.json'),
      shard.replace(
        /^\{/,
        `{"tally":${JSON.stringify((JSON.parse(shard) as { tally: number[] }).tally.map(() => 0))},`,
      ),
    );
    await expectRefused(['merge', file('decoy.json')], 'files', 'a decoy tally', /the key "tally" twice/, 'parser');
  });

  it('a checkpoint, its hash rewritten so only the parser stands in the way', async () => {
    const checkpoint = file('run.ckpt');
    expect((await cli('run', 'reserves', ...RUN, '--checkpoint', checkpoint)).status).toBe(0);
    const sealed = sealCheckpoint(JSON.parse(readFileSync(checkpoint, 'utf8')) as Record<string, unknown>);
    expect((await cli('run', 'reserves', ...RUN, '--checkpoint', checkpoint)).status).toBe(0);
    for (const [what, edit, message, by] of HOSTILE) {
      // A key the reader allows is caught by the checkpoint's hash (sealed before the edit).
      if (by !== 'parser') continue;
      const path = file('hostile.ckpt');
      const edited = edit(sealed);
      if (edited === sealed) continue; // a checkpoint has no params/args/shard object, nor chunks.first
      writeFileSync(path, edited);
      await expectRefused(
        ['run', 'reserves', ...RUN, '--checkpoint', path, '--json', file('never.json')],
        '--checkpoint',
        what,
        message,
        by,
      );
      expect(readFileSync(path, 'utf8')).toBe(edited);
    }
  });
});

describe('parseJsonInput', () => {
  it('seed 31: reads every JSON value JSON.stringify writes (without the refused keys) as JSON.parse does', () => {
    const key = fc.string().filter((k) => k !== '__proto__');
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'binary' }),
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 5 }),
      object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    })).value;
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 2), (json, indent) => {
        const text = JSON.stringify(json, null, indent);
        expect(parseJsonInput(text)).toEqual(JSON.parse(text));
      }),
      { seed: 31, numRuns: 500 },
    );
  });

  it('numbers read to the same double as JSON.parse, at the edges of the whole-number fast path', () => {
    const texts = [
      '0',
      '-0',
      '7',
      '-12',
      '123456789012345',
      '-999999999999999',
      '1234567890123456',
      '9007199254740991',
      '9007199254740993',
      '18446744073709551617',
      '1.5',
      '-0.0',
      '1e3',
      '1E-7',
      '2.5e+300',
      '1e400',
      '0.1',
    ];
    for (const text of texts) expect(Object.is(parseJsonInput(text), JSON.parse(text)), text).toBe(true);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (n) =>
        Object.is(parseJsonInput(String(n)), JSON.parse(String(n))),
      ),
      { seed: 32, numRuns: 2000 },
    );
    for (const text of ['-', '1.', '.5', '1e', '1e+', '+1', '-a'])
      expect(() => parseJsonInput(text), text).toThrow(JsonInputError);
  });

  it('nesting up to the limit is read; one level more is refused, at any depth of the limit', () => {
    expect(parseJsonInput(deep(MAX_JSON_DEPTH, '[', ']'))).toBeDefined();
    expect(() => parseJsonInput(deep(MAX_JSON_DEPTH + 1, '[', ']'))).toThrow(JsonInputError);
    expect(() => parseJsonInput(deep(1_000_000, '[', ']'))).toThrow(
      /nesting deeper than 64 levels at line 1, column 65/,
    );
  });

  it('what RFC 8259 refuses is refused, with its place', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /the text ends too early/],
      ['{"a":1,}', /unexpected "}" at line 1, column 8/],
      ['[1,]', /unexpected "\]"/],
      ['01', /more text/],
      ['"\u0001"', /a control character inside a string/],
      ['"\\x41"', /a bad escape/],
      ['"\\u12"', /a bad \\u escape/],
      ['{"a"\n:\n1\n"b":2}', /unexpected "\\"" at line 4, column 1/],
      ['NaN', /unexpected "N"/],
      ["{'a':1}", /unexpected "'"/],
    ];
    for (const [text, message] of cases) expect(() => parseJsonInput(text), text).toThrow(message);
  });
});
