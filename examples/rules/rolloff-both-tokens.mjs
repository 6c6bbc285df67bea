// rolloff-both-tokens.mjs — a 2d6 roll-off where both players hold a re-roll token: a two-sided decision.
//
// Each player rolls 2d6. A, seeing both totals, may spend a token to roll their own 2d6 again; then B,
// seeing A's final total, may do the same. The higher total wins; a tie is rolled again from the start
// with the tokens not yet spent. A plays to win (the objective a.wins), B plays against it. muster
// solves the game exactly (docs/custom-rules.md, "Decisions"): both sides' best play, each option's
// value, and A's chance under it.
//
//   muster run ./examples/rules/rolloff-both-tokens.mjs --exact

const twoDice = (dice) => dice.d(6) + dice.d(6);

export default {
  id: 'rolloff-both-tokens',
  title: '2d6 roll-off; both players hold a re-roll token',
  summary: 'a 2d6 roll-off where A, then B, may spend a re-roll token: both decide',
  source: 'worked example for muster rule files (a common house rule)',
  params: [
    { name: 'tokensA', type: 'integer', default: 1, min: 0, max: 2, doc: 're-roll tokens A holds' },
    { name: 'tokensB', type: 'integer', default: 1, min: 0, max: 2, doc: 're-roll tokens B holds' },
  ],
  metrics: [
    { name: 'a.wins', doc: 'A wins the roll-off', label: 'A wins', probability: true },
    { name: 'a.spent', doc: 'expected tokens A spends', probability: false },
    { name: 'b.spent', doc: 'expected tokens B spends', probability: false },
  ],
  objective: 'a.wins',

  start: (p) => ({ phase: 'roll', ta: p.tokensA, tb: p.tokensB }),
  choices(state) {
    if (state.phase === 'a' && state.ta > 0) return { side: 'a', options: ['keep', 'reroll'] };
    if (state.phase === 'b' && state.tb > 0) return { side: 'b', options: ['keep', 'reroll'] };
    return null;
  },
  choose(state, option) {
    if (option === 'reroll') return { ...state, phase: `${state.phase}-reroll` };
    return { ...state, phase: state.phase === 'a' ? 'b' : 'settle' };
  },
  step(state, dice) {
    switch (state.phase) {
      case 'roll':
        return { phase: 'a', a: twoDice(dice), b: twoDice(dice), ta: state.ta, tb: state.tb };
      case 'a': // no token left: on to B
        return { ...state, phase: 'b' };
      case 'a-reroll':
        return { ...state, phase: 'b', a: twoDice(dice), ta: state.ta - 1 };
      case 'b':
        return { ...state, phase: 'settle' };
      case 'b-reroll':
        return { ...state, phase: 'settle', b: twoDice(dice), tb: state.tb - 1 };
      default:
        if (state.a === state.b) return { phase: 'roll', ta: state.ta, tb: state.tb };
        return { winner: state.a > state.b ? 'a' : 'b', ta: state.ta, tb: state.tb };
    }
  },
  done: (state) => state.winner !== undefined,
  report(state, p, out) {
    out['a.wins'] = state.winner === 'a';
    out['a.spent'] = p.tokensA - state.ta;
    out['b.spent'] = p.tokensB - state.tb;
  },
  label: (state) => `A ${state.a} vs B ${state.b}, tokens A ${state.ta} B ${state.tb}`,
};
