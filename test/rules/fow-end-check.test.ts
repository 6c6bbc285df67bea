import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { fow } from '../../src/rules/fow/fow.js';
import { resolveParams } from '../../src/rules/params.js';

/**
 * The figures read "when the defender can first win", played out in the
 * mission's own turn order (Flames of War 3rd edition p. 285): "Атакующий
 * игрок ходит первым" (the attacker moves first), and the defender wins "на
 * начало хода обороняющегося игрока, начиная с шестого хода" (at the start of
 * the defender's turn, from turn six). So turn t is the attacker's turn t
 * (its reserve roll at its start), then the defender's turn t; the check
 * comes at the start of the defender's turn endTurn, before its roll.
 *
 * This walk is independent of fow.exact's per-side Markov chain: both sides
 * are played together, turn by turn, die by die (each die scores on 7 − hit
 * of its 6 faces), and the check is taken where the text puts it. The reserve
 * mechanics are the 4th-edition missions' (one die on a side's first rolling
 * turn, one more each turn, each scoring die brings a platoon, `guarantee`
 * dice with none scoring bring one anyway).
 */
interface Side {
  reserves: number;
  start: number;
}

interface Check {
  attackerAllIn: Fraction;
  defenderAllIn: Fraction;
  defenderOnTable: Fraction;
}

function playOut(
  attacker: Side,
  defender: Side,
  defenderPlatoons: number,
  hit: number,
  guarantee: number,
  endTurn: number,
): Check {
  const scoring = Fraction.of(7 - hit, 6);
  const missing = Fraction.of(hit - 1, 6);
  let attackerAllIn = Fraction.ZERO;
  let defenderAllIn = Fraction.ZERO;
  let defenderOnTable = Fraction.ZERO;

  /** Every way one side's reserve roll of `dice` dice can go, die by die: platoons arriving and its chance. */
  const roll = (dice: number, out: number): Array<[number, Fraction]> => {
    const ways: Array<[number, Fraction]> = [];
    const die = (left: number, scored: number, chance: Fraction) => {
      if (left === 0) {
        const arriving = scored === 0 && guarantee > 0 && dice >= guarantee ? 1 : Math.min(scored, out);
        ways.push([arriving, chance]);
        return;
      }
      die(left - 1, scored + 1, chance.mul(scoring));
      die(left - 1, scored, chance.mul(missing));
    };
    die(dice, 0, Fraction.ONE);
    return ways;
  };

  const turn = (t: number, attackerOut: number, defenderOut: number, chance: Fraction): void => {
    // The attacker's turn t: its reserve roll at the start.
    const attackerRolls =
      t >= attacker.start && attackerOut > 0
        ? roll(t - attacker.start + 1, attackerOut)
        : [[0, Fraction.ONE] as [number, Fraction]];
    for (const [attackerArriving, attackerChance] of attackerRolls) {
      const afterAttacker = attackerOut - attackerArriving;
      const reached = chance.mul(attackerChance);
      // The start of the defender's turn t: from endTurn on, the check; the first is the one read.
      if (t === endTurn) {
        if (afterAttacker === 0) attackerAllIn = attackerAllIn.add(reached);
        if (defenderOut === 0) defenderAllIn = defenderAllIn.add(reached);
        defenderOnTable = defenderOnTable.add(reached.mul(Fraction.of(defenderPlatoons - defenderOut)));
        continue;
      }
      const defenderRolls =
        t >= defender.start && defenderOut > 0
          ? roll(t - defender.start + 1, defenderOut)
          : [[0, Fraction.ONE] as [number, Fraction]];
      for (const [defenderArriving, defenderChance] of defenderRolls)
        turn(t + 1, afterAttacker, defenderOut - defenderArriving, reached.mul(defenderChance));
    }
  };
  turn(1, attacker.reserves, defender.reserves, Fraction.ONE);
  return { attackerAllIn, defenderAllIn, defenderOnTable };
}

describe("fow: the figures at the defender's first chance to win, played out in the mission's turn order", () => {
  const cases: string[][] = [
    ['attackerStart=3'],
    [],
    ['attackerStart=2', 'endTurn=4', 'guarantee=0'],
    ['attackerStart=4', 'defenderStart=2', 'endTurn=5', 'hit=4'],
    [
      'attackerPlatoons=5',
      'attackerReserves=4',
      'attackerStart=3',
      'defenderPlatoons=5',
      'defenderReserves=3',
      'defenderStart=1',
      'endTurn=5',
      'guarantee=2',
    ],
    ['attackerStart=3', 'turns=3', 'endTurn=7', 'guarantee=0', 'hit=6'], // the check after the turns shown
  ];
  for (const set of cases) {
    it(`${set.join(' ') || 'the defaults'}`, () => {
      const params = resolveParams(fow, set);
      const exact = fow.exact!.values(params);
      const reserves = (side: 'attacker' | 'defender') => Number(params[`${side}Reserves`]);
      const played = playOut(
        { reserves: reserves('attacker'), start: Number(params.attackerStart) },
        { reserves: reserves('defender'), start: Number(params.defenderStart) },
        Number(params.defenderPlatoons),
        Number(params.hit),
        Number(params.guarantee),
        Number(params.endTurn),
      );
      expect(exact['attacker.allIn.atEnd'].toString()).toBe(played.attackerAllIn.toString());
      expect(exact['defender.allIn.atEnd'].toString()).toBe(played.defenderAllIn.toString());
      expect(exact['defender.onTable.atEnd.mean'].toString()).toBe(played.defenderOnTable.toString());
    });
  }

  it(
    'with Reserves that wait to turn 3 the attacker is all in at that check 17123/19683 of the time, not ' + '281/729',
    () => {
      // 3 platoons; turns 3–6 roll 1, 2, 3, 4 dice: the attacker's turn 6 comes before the defender's check of turn 6.
      const played = playOut({ reserves: 3, start: 3 }, { reserves: 3, start: 3 }, 6, 5, 3, 6);
      expect(played.attackerAllIn.toString()).toBe('17123/19683');
      expect(fow.exact!.values(resolveParams(fow, ['attackerStart=3']))['attacker.allIn.atEnd'].toString()).toBe(
        '17123/19683',
      );
    },
  );

  it('the metric says which turn it counts', () => {
    const metric = fow.metrics(resolveParams(fow, ['endTurn=7'])).find((m) => m.name === 'attacker.allIn.atEnd');
    expect(metric?.doc).toContain('in by its turn 7');
  });
});
