// fow-steps.mjs — Flames of War reserves in a prepared-positions mission (3rd edition, p. 285), in the step
// form, with no exact(): attacker Reserves against the defender's Delayed and Scattered Reserves.
//
// The mission names the reserve rules without giving them; the mechanics are the 4th-edition missions'
// (2017), every number a parameter: from its first rolling turn a side rolls one die, one more each later
// turn; each die scoring `hit` (5+) brings one platoon while any remain; with `guarantee` (three) or more
// dice and none scoring, one platoon arrives anyway. A side keeps half its platoons (rounded up) in
// reserve unless told otherwise (0); one defending platoon may be in Immediate Ambush, on the table from
// turn 1. Scattered Reserves enter left on 1–2, centre on 3–4, right on 5–6.
//
// One step is one turn, the attacker's roll then the defender's; the state is the turn and each side's
// platoons still in reserve. Turn-by-turn figures are written by the step of their turn (what steps write
// adds up), so they are means of 0/1 values here where the built-in `fow` rule reports probabilities:
// the same numbers. test/rules/enumerate-ports.test.ts checks every value against the built-in's exact().

const SIDES = ['attacker', 'defender'];
/** Most reserve platoons for which "at least k of n in by turn t" is reported, as the built-in does. */
const DISTRIBUTION_RESERVES = 12;
/** Scattered Reserves: the share of a die's faces that sends a platoon to each place. */
const SCATTER = { left: 2, centre: 2, right: 2 };

function sideOf(p, side) {
  const platoons = p[`${side}Platoons`];
  const asked = p[`${side}Reserves`];
  return { platoons, reserves: asked === 0 ? Math.ceil(platoons / 2) : asked, start: p[`${side}Start`] };
}

/** Turns followed: every turn reported, and up to the defender's first chance to win (the attacker's turn endTurn). */
const horizon = (p) => Math.max(p.turns, p.endTurn);

export default {
  id: 'fow-steps',
  title: 'Flames of War reserves, prepared positions (step form)',
  summary:
    'Flames of War: attacker Reserves against defender Delayed and Scattered Reserves with an Immediate Ambush, ' +
    'turn by turn',
  source: 'Flames of War, 3rd edition, p. 285 (prepared positions); reserve dice per the 4th-edition missions',
  params: [
    { name: 'attackerPlatoons', type: 'integer', default: 6, min: 1, max: 30, doc: "platoons in the attacker's force" },
    {
      name: 'attackerReserves',
      type: 'integer',
      default: 0,
      min: 0,
      max: 30,
      doc: 'attacking platoons in Reserves; 0: half, rounded up',
    },
    {
      name: 'attackerStart',
      type: 'integer',
      default: 1,
      min: 1,
      max: 20,
      doc: 'first turn the attacker rolls for Reserves',
    },
    {
      name: 'defenderPlatoons',
      type: 'integer',
      default: 6,
      min: 1,
      max: 30,
      doc: "platoons in the defender's force, the ambush platoon included",
    },
    {
      name: 'defenderReserves',
      type: 'integer',
      default: 0,
      min: 0,
      max: 30,
      doc: 'defending platoons in Delayed and Scattered Reserves; 0: half, rounded up',
    },
    {
      name: 'defenderStart',
      type: 'integer',
      default: 3,
      min: 1,
      max: 20,
      doc: 'first turn the defender rolls for its reserves',
    },
    {
      name: 'ambush',
      type: 'boolean',
      default: true,
      doc: 'one defending platoon is in Immediate Ambush (not in reserve)',
    },
    {
      name: 'hit',
      type: 'integer',
      default: 5,
      min: 2,
      max: 6,
      doc: 'a reserve die scoring this or more brings one platoon',
    },
    {
      name: 'guarantee',
      type: 'integer',
      default: 3,
      min: 0,
      max: 20,
      doc: 'this many dice or more with none scoring still bring one platoon; 0 for never',
    },
    { name: 'turns', type: 'integer', default: 8, min: 1, max: 20, doc: 'turns followed' },
    {
      name: 'endTurn',
      type: 'integer',
      default: 6,
      min: 2,
      max: 20,
      doc: 'the first turn the defender can win, at the start of its turn',
    },
  ],
  validate(p) {
    for (const side of SIDES) {
      const { platoons, start } = sideOf(p, side);
      const asked = p[`${side}Reserves`];
      const most = side === 'defender' && p.ambush ? platoons - 1 : platoons;
      if (asked !== 0 && (asked < Math.ceil(platoons / 2) || asked > most))
        return `${side}Reserves: got ${asked}; allowed: 0 (half, rounded up) or ${Math.ceil(platoons / 2)} to ${most}`;
      if (start > p.turns) return `${side}Start: got ${start}; allowed: 1 to turns (${p.turns})`;
    }
  },
  metrics(p) {
    const list = [];
    for (const side of SIDES) {
      const { reserves } = sideOf(p, side);
      list.push({ name: `${side}.reserves`, doc: `platoons the ${side} holds in reserve`, probability: false });
      for (let t = 1; t <= p.turns; t++)
        list.push({
          name: `${side}.onTable.${t}.mean`,
          doc: `expected ${side} platoons on the table after its roll in turn ${t}`,
          probability: false,
        });
      for (let t = 1; t <= p.turns; t++)
        list.push({
          name: `${side}.allIn.by.${t}`,
          doc: `every ${side} reserve has arrived by turn ${t}`,
          probability: false,
        });
      for (let t = 1; t <= p.turns; t++)
        list.push({
          name: `${side}.first.${t}`,
          doc: `the ${side}'s first reserve platoon arrives in turn ${t}`,
          probability: false,
        });
      list.push({
        name: `${side}.last.arrival`,
        doc: `the turn the ${side}'s last reserve arrives (${p.turns + 1}: some still out after turn ${p.turns})`,
        probability: false,
      });
      if (reserves <= DISTRIBUTION_RESERVES) {
        for (let t = 1; t <= p.turns; t++) {
          for (let k = 1; k < reserves; k++)
            list.push({
              name: `${side}.atLeast.${k}.by.${t}`,
              doc: `at least ${k} of the ${side}'s ${reserves} reserves in by turn ${t}`,
              probability: false,
            });
        }
      }
    }
    for (const place of Object.keys(SCATTER))
      list.push({
        name: `defender.scatter.${place}`,
        doc: `an arriving defending platoon enters ${place}`,
        probability: false,
      });
    list.push({
      name: 'defender.onTable.atEnd.mean',
      doc: 'expected defending platoons on the table when the defender can first win',
      probability: false,
    });
    list.push({
      name: 'defender.allIn.atEnd',
      doc: 'every defending reserve is on the table when the defender can first win',
      probability: false,
    });
    list.push({
      name: 'attacker.allIn.atEnd',
      doc:
        'every attacking reserve is in when the defender can first win (the attacker moves first: in by its ' +
        'turn endTurn)',
      probability: false,
    });
    return list;
  },

  start: (p) => ({ turn: 1, attacker: sideOf(p, 'attacker').reserves, defender: sideOf(p, 'defender').reserves }),

  step(state, dice, p, out) {
    const { turn } = state;
    const next = { turn: turn + 1 };
    for (const side of SIDES) {
      const { platoons, reserves, start } = sideOf(p, side);
      const before = state[side];
      let arriving = 0;
      if (turn >= start && before > 0) {
        const rolled = turn - start + 1; // one die, one more each turn
        arriving = Math.min(before, dice.count(rolled, 6, p.hit));
        if (arriving === 0 && p.guarantee > 0 && rolled >= p.guarantee) arriving = 1;
      }
      const after = before - arriving;
      next[side] = after;
      if (turn <= p.turns) {
        out[`${side}.onTable.${turn}.mean`] = platoons - after;
        out[`${side}.allIn.by.${turn}`] = after === 0 ? 1 : 0;
        out[`${side}.first.${turn}`] = before === reserves && after < reserves ? 1 : 0;
        if (reserves <= DISTRIBUTION_RESERVES)
          for (let k = 1; k < reserves; k++) out[`${side}.atLeast.${k}.by.${turn}`] = reserves - after >= k ? 1 : 0;
        // Written once a play: in the turn the last platoon comes in, or after the last turn shown if some are out.
        if (before > 0 && after === 0) out[`${side}.last.arrival`] = turn;
        else if (turn === p.turns && after > 0) out[`${side}.last.arrival`] = p.turns + 1;
      }
      // The defender's check at the start of its turn endTurn comes after the attacker's turn endTurn (the attacker
      // moves first) and before the defender's own roll of that turn.
      if (turn === p.endTurn - 1 && side === 'defender') {
        out['defender.onTable.atEnd.mean'] = platoons - after;
        out['defender.allIn.atEnd'] = after === 0 ? 1 : 0;
      }
      if (turn === p.endTurn && side === 'attacker') out['attacker.allIn.atEnd'] = after === 0 ? 1 : 0;
    }
    return next;
  },

  done: (state, p) => state.turn > horizon(p),

  report(state, p, out) {
    for (const side of SIDES) out[`${side}.reserves`] = sideOf(p, side).reserves;
    // Where a platoon enters is its own die: the share of the faces, whatever else happened.
    for (const [place, faces] of Object.entries(SCATTER)) out[`defender.scatter.${place}`] = faces / 6;
  },
};
