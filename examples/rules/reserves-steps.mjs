// reserves-steps.mjs — Genesys Project reserves (designer preview, §6.5) in the step form, with no exact().
//
//   "Reserves are brought in on a die roll with a target number of 7+ … roll 1d6 for each unit and add
//    the Game Round to this number." In the chosen reserve round "the highest level command in the
//    player's army on the table may be added to his or her die roll for all squads still in reserve."
//   "Any squad that has not entered the board after four Game Rounds does not make the battle."
//
// One step is one game round. The state is all that later rounds read: the round, how many squads are
// still out, and whether the commander has been lost (only until the chosen round: after it nothing
// reads it, so it is dropped and states that differ only in it are one). So 20 squads over 12 rounds
// is a few hundred states, where the dice alone have 6^240 sequences. Readings as the built-in
// `reserves` rule takes them (its describe lists them); test/rules/enumerate-ports.test.ts checks every
// value here against its exact(), fraction for fraction.

/** The lowest face (1–6; 7: none) that brings a squad in this round, with `bonus` in the chosen round. */
function faceNeeded(p, round, bonus) {
  const modifier = round + (round === p.chosenRound ? bonus : 0);
  return Math.min(7, Math.max(1, p.target - modifier));
}

export default {
  id: 'reserves-steps',
  title: 'Genesys reserves (step form)',
  summary:
    'Genesys Project reserves round by round: when squads arrive, with a chosen reserve round, command bonus and ' +
    'leader loss',
  source: 'The Genesys Project, designer preview, §6.5 Reserves',
  params: [
    { name: 'squads', type: 'integer', default: 4, min: 1, max: 100, doc: 'squads held in reserve' },
    {
      name: 'rounds',
      type: 'integer',
      default: 4,
      min: 1,
      max: 12,
      doc: 'rounds in which reserves may arrive; a squad not in after the last is lost (the text: four)',
    },
    {
      name: 'target',
      type: 'integer',
      default: 7,
      min: 2,
      max: 20,
      doc: 'a squad arrives when 1d6 + round (+ bonus) reaches this (the text: 7+)',
    },
    {
      name: 'chosenRound',
      type: 'integer',
      default: 0,
      min: 0,
      max: 12,
      doc: 'the chosen reserve round, 0 for none; at most rounds',
    },
    {
      name: 'command',
      type: 'integer',
      default: 2,
      min: 0,
      max: 10,
      doc: 'highest command on the table, added to every reserve roll in the chosen round',
    },
    {
      name: 'leaderLoss',
      type: 'number',
      default: 0,
      min: 0,
      max: 1,
      doc: 'chance the commander is lost in each round before the chosen round; the bonus needs it alive',
    },
    {
      name: 'fallbackCommand',
      type: 'integer',
      default: 0,
      min: 0,
      max: 10,
      doc: 'bonus used instead once the commander is lost',
    },
    {
      name: 'firstRound',
      type: 'integer',
      default: 1,
      min: 1,
      max: 12,
      doc: 'the first round in which reserves roll; the text does not say rolls wait, so 1',
    },
  ],
  validate(p) {
    if (p.firstRound > p.rounds) return `firstRound: got ${p.firstRound}; allowed: 1 to rounds (${p.rounds})`;
    if (p.chosenRound > p.rounds) return `chosenRound: got ${p.chosenRound}; allowed: 0 (none) to rounds (${p.rounds})`;
    if (p.chosenRound !== 0 && p.chosenRound < p.firstRound)
      return (
        `chosenRound: got ${p.chosenRound}; allowed: 0 (none) or firstRound (${p.firstRound}) to rounds ` +
        `(${p.rounds})`
      );
  },
  metrics(p) {
    const list = [];
    for (let r = 1; r <= p.rounds; r++)
      list.push({
        name: `squad.round.${r}`,
        doc: `a given squad arrives in round ${r} (share of squads)`,
        probability: false,
      });
    list.push({
      name: 'squad.never',
      doc: 'a given squad never arrives and is lost (share of squads)',
      probability: false,
    });
    for (let r = 1; r <= p.rounds; r++)
      list.push({ name: `all.by.${r}`, doc: `every squad has arrived by the end of round ${r}`, probability: true });
    list.push({ name: 'lost.mean', doc: 'expected squads lost', probability: false });
    for (let r = 1; r <= p.rounds; r++)
      list.push({
        name: `arrived.by.${r}.mean`,
        doc: `expected squads on the table by the end of round ${r}`,
        probability: false,
      });
    list.push({ name: 'dice.mean', doc: 'expected reserve dice rolled over the game', probability: false });
    return list;
  },
  headline: (p) => [
    ...Array.from({ length: p.rounds }, (_, r) => `squad.round.${r + 1}`),
    'squad.never',
    `all.by.${p.rounds}`,
  ],

  start: (p) => ({ round: 1, out: p.squads, lost: false }),

  step(state, dice, p, out) {
    const { round } = state;
    let lost = state.lost;
    // Before the chosen round the commander may fall, each round with chance leaderLoss.
    if (round < p.chosenRound && !lost && p.command !== p.fallbackCommand) lost = dice.chance(p.leaderLoss);
    let arriving = 0;
    if (round >= p.firstRound) {
      out['dice.mean'] = state.out; // every squad still out rolls a die; what steps write adds up
      arriving = dice.count(state.out, 6, faceNeeded(p, round, lost ? p.fallbackCommand : p.command));
    }
    out[`squad.round.${round}`] = arriving / p.squads;
    for (let r = round; r <= p.rounds; r++) out[`arrived.by.${r}.mean`] = arriving;
    // After the chosen round nothing reads the commander's fate: dropped, so those states merge.
    return { round: round + 1, out: state.out - arriving, lost: round < p.chosenRound ? lost : false };
  },

  done: (state, p) => state.out === 0 || state.round > p.rounds,

  report(state, p, out) {
    out['squad.never'] = state.out / p.squads;
    out['lost.mean'] = state.out;
    // Every squad in: the last one arrived in the round before the state's.
    for (let r = 1; r <= p.rounds; r++) out[`all.by.${r}`] = state.out === 0 && state.round - 1 <= r;
  },
};
