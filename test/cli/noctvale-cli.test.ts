import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { bufferIo } from '../support/io.js';

describe('noctvale rejects impossible retinues', () => {
  it.each([
    ['fightersA=0', 'fightersA'],
    ['fightersB=0', 'fightersB'],
    ['fightersA=61', 'fightersA'],
    ['fightersB=eight', 'fightersB'],
    ['fightersA=7.5', 'fightersA'],
    ['groups=0', 'groups'],
    ['groups=11', 'groups'],
    ['groups=three', 'groups'],
  ])('--set %s is a one-line error naming %s, exit status 2', async (setting, parameter) => {
    const io = bufferIo();
    const status = await main(['run', 'noctvale', '--set', setting, '--exact'], io);
    expect(status).toBe(2);
    const lines = io.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^muster: ${parameter}: got `));
    expect(io.stdout()).toBe('');
  });
});
