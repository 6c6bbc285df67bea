import { describe, expect, it } from 'vitest';
import { parseCount } from '../../src/cli/options.js';
import { formatDuration, formatRate, ProgressBar, plainTerminal } from '../../src/cli/progress.js';

describe('progress bar', () => {
  it('stays silent for the first second, then shows percent, rate and time left', () => {
    let clock = 0;
    let written = '';
    const bar = new ProgressBar(
      (text) => (written += text),
      true,
      () => clock,
      { plain: false },
    );
    clock = 500;
    bar.update(1_000_000, 10_000_000);
    expect(written).toBe('');
    clock = 2000; // 4M trials in 2 s: 2.0M/s, 6M left: 3 s
    bar.update(4_000_000, 10_000_000);
    expect(written).toMatch(/ 40% {2}4\.0M\/10\.0M trials {2}2\.0M trials\/s {2}ETA 3s/);
    bar.finish();
    expect(written.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('TERM=dumb or NO_COLOR: plain text only, no escape sequence or block characters', () => {
    expect(plainTerminal({ TERM: 'dumb' })).toBe(true);
    expect(plainTerminal({ TERM: 'xterm', NO_COLOR: '1' })).toBe(true);
    expect(plainTerminal({ TERM: 'xterm', NO_COLOR: '' })).toBe(false);
    expect(plainTerminal({ TERM: 'xterm-256color' })).toBe(false);
    let clock = 0;
    let written = '';
    const bar = new ProgressBar(
      (text) => (written += text),
      true,
      () => clock,
      { plain: true, unit: 'trials' },
    );
    clock = 2000;
    bar.update(1_000_000, 4_000_000);
    bar.finish();
    expect(written).toMatch(/#{7}-{21} {2}25% {2}1\.0M\/4\.0M trials/);
    expect(written).not.toMatch(/[\x1b█░]/);
    expect(written.endsWith('\r')).toBe(true);
  });

  it('writes nothing when disabled (not a terminal, or --quiet)', () => {
    let clock = 0;
    let written = '';
    const bar = new ProgressBar(
      (text) => (written += text),
      false,
      () => clock,
    );
    clock = 5000;
    bar.update(1, 2);
    bar.finish();
    expect(written).toBe('');
  });

  it('formats rates and durations', () => {
    expect(formatRate(25_200_000)).toBe('25.2M');
    expect(formatRate(1500)).toBe('1.5k');
    expect(formatDuration(2.1)).toBe('3s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(119.5)).toBe('2m00s');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('--');
  });
});

describe('trial counts', () => {
  it.each([
    ['1000000', 1_000_000],
    ['1e7', 10_000_000],
    ['10M', 10_000_000],
    ['2.5k', 2500],
    ['4e9', 4e9],
  ])('%s is %i', (text, count) => {
    expect(parseCount('--trials', text)).toBe(count);
  });

  it.each(['0', '1.5', '5e9', 'ten', '', '1e', '-3', '1_000'])('%j is refused', (text) => {
    expect(() => parseCount('--trials', text)).toThrow(
      /^--trials: got .*; allowed: a whole number of trials from 1 to 4e9/,
    );
  });
});
