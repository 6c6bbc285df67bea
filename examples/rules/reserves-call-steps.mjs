// reserves-call-steps.mjs — Genesys Project reserves (designer preview, §6.5) with the chosen reserve round
// called in play: a decision rule in the step form.
//
//   "Reserves are brought in on a die roll with a target number of 7+ … roll 1d6 for each unit and add
//    the Game Round to this number." In the chosen reserve round "the highest level command in the
//    player's army on the table may be added to his or her die roll for all squads still in reserve."
//   "Any squad that has not entered the board after four Game Rounds does not make the battle."
//
// The text does not say when the round is chosen. Here the player calls it at the start of a round's
// Events Phase, before that round's reserve rolls, seeing how many squads are still out and whether the
// commander lives: call now (this round's rolls get the bonus) or wait. muster finds the best calling
// policy exactly and prints it (docs/custom-rules.md, "Decisions"). It is the built-in
// `muster run reserves --set chosenRound=call` written as a rule file, with the same readings: the
// commander may be lost at the end of each round before the call (leaderLoss), and a tie between calling
// and waiting calls (so `call` is listed first). test/rules/reserves-call-steps.test.ts checks every
// value here against the built-in, fraction for fraction.
//
//   muster run ./examples/rules/reserves-call-steps.mjs --exact
//   muster run ./examples/rules/reserves-call-steps.mjs --exact --set leaderLoss=0.3 --objective arrived.by.2.mean
//
// Squads roll independently, so for "every squad in by the last round" with a commander who cannot be
// lost, calling in play is worth nothing over the best round declared before the game; with leader loss,
// or an objective that weighs early arrivals, it is worth something.

/** The lowest face (1–6; 7: none) that brings a squad in this round, with `bonus` added to its roll. */
function faceNeeded(p, round, bonus) {
  return Math.min(7, Math.max(1, p.target - round - bonus));
}

/** Whether the commander's fate can still matter: it can be lost, and losing it changes the bonus. */
const fateMatters = (p) => p.leaderLoss > 0 && p.command !== p.fallbackCommand;

export default {
  id: 'reserves-call-steps',
  title: 'Genesys reserves, the chosen round called in play (step form)',
  summary:
    'Genesys Project reserves round by round, the chosen reserve round called at the start of a round seeing ' +
    'the squads still out and the commander: when to call, solved exactly',
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
      name: 'command',
      type: 'integer',
      default: 2,
      min: 0,
      max: 10,
      doc: 'highest command on the table, added to every reserve roll in the round called',
    },
    {
      name: 'leaderLoss',
      type: 'number',
      default: 0,
      min: 0,
      max: 1,
      doc: 'chance the commander is lost at the end of each round before the call; the bonus needs it alive',
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
  },
  metrics(p) {
    const list = [];
    for (let r = 1; r <= p.rounds; r++)
      list.push({ name: `all.by.${r}`, doc: `every squad has arrived by the end of round ${r}`, probability: true });
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
    list.push({ name: 'lost.mean', doc: 'expected squads lost', probability: false });
    for (let r = 1; r <= p.rounds; r++)
      list.push({
        name: `arrived.by.${r}.mean`,
        doc: `expected squads on the table by the end of round ${r}`,
        probability: false,
      });
    list.push({ name: 'dice.mean', doc: 'expected reserve dice rolled over the game', probability: false });
    list.push({
      name: 'last.arrival',
      doc: `expected round of the last arrival (rounds + 1: some squad never arrives)`,
      probability: false,
    });
    return list;
  },
  // The first headline metric is the default objective: every squad in by the last round (at the default 4).
  headline: (p) => [`all.by.${p.rounds}`, `arrived.by.${Math.min(2, p.rounds)}.mean`, 'squad.never'],

  start: (p) => ({ round: 1, out: p.squads, alive: true }),

  // At the start of a round in which reserves roll, with squads still out and the round not yet called.
  choices: (state, p) =>
    state.called !== true && state.phase === undefined && state.out > 0 && state.round >= p.firstRound
      ? ['call', 'wait']
      : null,
  choose: (state, option) => ({ round: state.round, out: state.out, alive: state.alive, phase: option }),

  step(state, dice, p, out) {
    const { round } = state;
    let arriving = 0;
    if (round >= p.firstRound) {
      out['dice.mean'] = state.out; // every squad still out rolls a die; what steps write adds up
      const calling = state.phase === 'call';
      const bonus = calling ? (state.alive ? p.command : p.fallbackCommand) : 0;
      arriving = dice.count(state.out, 6, faceNeeded(p, round, bonus));
    }
    out[`squad.round.${round}`] = arriving / p.squads;
    for (let r = round; r <= p.rounds; r++) out[`arrived.by.${r}.mean`] = arriving;
    const left = state.out - arriving;
    if (arriving > 0 && left === 0) out['last.arrival'] = round;
    // Called (now or before): nothing later reads the commander, so it is dropped and those states merge.
    if (state.called === true || state.phase === 'call') return { round: round + 1, out: left, called: true };
    // Not yet called: the commander may be lost at the end of the round, if a later round can still be called.
    let alive = state.alive;
    if (alive && fateMatters(p) && left > 0 && round < p.rounds) alive = !dice.chance(p.leaderLoss);
    return { round: round + 1, out: left, alive: fateMatters(p) ? alive : true };
  },

  done: (state, p) => state.out === 0 || state.round > p.rounds,

  report(state, p, out) {
    out['squad.never'] = state.out / p.squads;
    out['lost.mean'] = state.out;
    if (state.out > 0) out['last.arrival'] = p.rounds + 1;
    // Every squad in: the last one arrived in the round before the state's.
    for (let r = 1; r <= p.rounds; r++) out[`all.by.${r}`] = state.out === 0 && state.round - 1 <= r;
  },

  label: (state, p) =>
    `round ${state.round}, ${state.out} squad${state.out === 1 ? '' : 's'} out` +
    (fateMatters(p) ? `, commander ${state.alive ? 'alive' : 'lost'}` : ''),
};
