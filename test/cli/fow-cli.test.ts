import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { fow } from '../../src/rules/fow/fow.js';
import { resolveParams } from '../../src/rules/params.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('fow');

/** Runs `muster run fow --exact --set …` and expects exit status 2 with one stderr line naming `parameter`. */
async function expectRejected(settings: string[], parameter: string): Promise<string> {
  const io = bufferIo();
  const json = join(folder, `${parameter}-${settings.join('_').replace(/[^a-z0-9]/gi, '')}.json`);
  const status = await main(['run', 'fow', '--exact', '--json', json, ...settings.flatMap((s) => ['--set', s])], io);
  expect(status).toBe(2);
  expect(io.stdout()).toBe('');
  const message = io.stderr();
  expect(message.endsWith('\n')).toBe(true);
  expect(message.trimEnd().split('\n')).toHaveLength(1);
  expect(message.startsWith(`muster: ${parameter}: `)).toBe(true);
  expect(existsSync(json)).toBe(false);
  return message;
}

describe('fow rejects what the mission does not allow', () => {
  it('fewer than half the platoons in reserve: 2 of 6 for the attacker, 2 of 6 for the defender', async () => {
    expect(await expectRejected(['attackerReserves=2'], 'attackerReserves')).toContain(
      '3 (half of 6 platoons, rounded up) to 6',
    );
    expect(await expectRejected(['defenderReserves=2'], 'defenderReserves')).toContain(
      '3 (half of 6 platoons, rounded up) to 5',
    );
    expect(await expectRejected(['attackerPlatoons=9', 'attackerReserves=4'], 'attackerReserves')).toContain(
      '5 (half of 9 platoons',
    );
  });

  it('more in reserve than the force has: 7 of 6 attackers; all 6 defenders while one is in ambush', async () => {
    await expectRejected(['attackerReserves=7'], 'attackerReserves');
    expect(await expectRejected(['defenderReserves=6'], 'defenderReserves')).toContain('ambush');
  });

  it('a single defending platoon cannot be both half in reserve and in ambush', async () => {
    await expectRejected(['defenderPlatoons=1'], 'defenderPlatoons');
  });

  it('a scatter map missing a face, naming a face twice, backwards, or with a bad place name', async () => {
    expect(await expectRejected(['scatter=1-2:left,3-4:centre,5:right'], 'scatter')).toContain('no place for face 6');
    expect(await expectRejected(['scatter=1-3:left,3-4:centre,5-6:right'], 'scatter')).toContain(
      'face 3 is given twice',
    );
    await expectRejected(['scatter=2-1:left,3-4:centre,5-6:right'], 'scatter');
    await expectRejected(['scatter=1-2:left!,3-4:centre,5-6:right'], 'scatter');
    await expectRejected(['scatter=1-2:left,3-4:centre,5-7:right'], 'scatter');
    await expectRejected(['scatter='], 'scatter');
  });

  it('a reserve roll needing 7, or 1, on a die', async () => {
    await expectRejected(['hit=7'], 'hit');
    await expectRejected(['hit=1'], 'hit');
  });

  it('reserves that would start rolling after the last turn followed', async () => {
    await expectRejected(['defenderStart=9'], 'defenderStart');
    await expectRejected(['turns=2'], 'defenderStart');
  });
});

describe('fow accepts the mission and shows what it used', () => {
  it(
    'all 6 defenders in reserve without the ambush is allowed; the JSON params show the count "half" stood ' + 'for',
    async () => {
      const io = bufferIo();
      const json = join(folder, 'no-ambush.json');
      const status = await main(
        ['run', 'fow', '--exact', '--quiet', '--json', json, '--set', 'ambush=false', '--set', 'defenderReserves=6'],
        io,
      );
      expect(status).toBe(0);
      const result = JSON.parse(readFileSync(json, 'utf8'));
      expect(result.params.attackerReserves).toBe(3); // 0 by default: half of 6, rounded up
      expect(result.params.defenderReserves).toBe(6);
      expect(result.params.scatter).toBe('1-2:left,3-4:centre,5-6:right');
      expect(result.metrics['attacker.reserves'].exact).toBe(3);
      expect(result.metrics['defender.reserves'].exact).toBe(6);
      // Nothing deployed and no ambush: the defender's table is empty until its reserves roll in turn 3.
      expect(result.metrics['defender.onTable.2.mean'].exact).toBe(0);
    },
  );

  it('half is worked out for each point of a sweep, from that point’s platoons', () => {
    // 7 attacking platoons: half rounded up is 4; 8 defending: 4; an explicit count stays as given.
    expect(resolveParams(fow, ['attackerPlatoons=7'], { defenderPlatoons: 8 })).toMatchObject({
      attackerReserves: 4,
      defenderReserves: 4,
    });
    expect(resolveParams(fow, ['attackerPlatoons=7', 'attackerReserves=6'])).toMatchObject({
      attackerReserves: 6,
      defenderReserves: 3,
    });
  });
});
