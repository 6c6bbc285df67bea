// rolloff-token.mjs — a 2d6 roll-off where player A holds re-roll tokens, and decides when to spend them.
//
// Each player rolls 2d6; the higher total wins. A sees both totals and may spend a token to roll
// their own 2d6 again, keeping the new total. A tie is rolled again from the start, and A keeps any
// token not yet spent. When is a re-roll worth spending? muster solves it exactly: the policy table
// says, for each pair of totals, whether to keep or re-roll and what each is worth (docs/custom-rules.md,
// "Decisions").
//
//   muster run ./examples/rules/rolloff-token.mjs --exact
//   muster run ./examples/rules/rolloff-token.mjs --exact --set tokens=2

const twoDice = (dice) => dice.d(6) + dice.d(6);

/** A totals comparison: A's win, B's win, or a tie rolled again with the tokens left. */
function settle(a, b, tokens) {
  if (a > b) return { winner: 'a', tokens };
  if (a < b) return { winner: 'b', tokens };
  return { phase: 'roll', tokens };
}

export default {
  id: 'rolloff-token',
  title: '2d6 roll-off; A may spend re-roll tokens',
  summary: 'a 2d6 roll-off where player A decides, seeing both totals, whether to spend a re-roll token',
  source: 'worked example for muster rule files (a common house rule)',
  params: [{ name: 'tokens', type: 'integer', default: 1, min: 0, max: 3, doc: 're-roll tokens A holds at the start' }],
  metrics: [
    { name: 'a.wins', doc: 'A wins the roll-off', label: 'A wins', probability: true },
    { name: 'tokens.spent', doc: 'expected tokens A spends', probability: false },
    { name: 'rolls.mean', doc: 'expected rolls of 2d6 by A, re-rolls included', probability: false },
  ],
  headline: ['a.wins', 'tokens.spent'],
  objective: 'a.wins',

  start: (p) => ({ phase: 'roll', tokens: p.tokens }),
  // A decides only with a token in hand, after both have rolled.
  choices: (state) => (state.phase === 'decide' && state.tokens > 0 ? ['keep', 'reroll'] : null),
  choose(state, option) {
    if (option === 'keep') return settle(state.a, state.b, state.tokens);
    return { phase: 'reroll', b: state.b, tokens: state.tokens - 1 };
  },
  step(state, dice, p, out) {
    out['rolls.mean'] = 1;
    if (state.phase === 'reroll') return settle(twoDice(dice), state.b, state.tokens);
    const a = twoDice(dice);
    const b = twoDice(dice);
    return state.tokens > 0 ? { phase: 'decide', a, b, tokens: state.tokens } : settle(a, b, 0);
  },
  done: (state) => state.winner !== undefined,
  report(state, p, out) {
    out['a.wins'] = state.winner === 'a';
    out['tokens.spent'] = p.tokens - state.tokens;
  },
  label: (state) => `${state.tokens} token${state.tokens === 1 ? '' : 's'}, A ${state.a} vs B ${state.b}`,
};
