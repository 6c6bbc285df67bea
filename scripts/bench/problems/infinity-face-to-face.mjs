// infinity-face-to-face.mjs — the bench's Infinity problem, as icepool's side of it solves it: the chance that
// player A wins the Initiative Roll (Infinity N4, Initiative and Deployment: Initiative Roll; Face to Face Rolls),
// a tie or a double failure rolled again, and nothing else.
//
// examples/rules/infinity-steps.mjs is the file a user reads: it also counts the rolls, whether the first decides
// and who wins with a critical, so its first roll and its repeated rolls are states of their own (800 paths where
// this has 400). This one is the same procedure as the icepool program it is timed against.

const CRITICAL = 100;

/** What a d20 face scores for a Lieutenant of this WIP: 0 a failure, the result, or CRITICAL (as infinity-steps). */
function score(face, wip) {
  const result = face + Math.max(0, wip - 20);
  if (result > wip) return 0;
  return result === wip || result >= 20 ? CRITICAL : result;
}

export default {
  id: 'infinity-face-to-face',
  title: 'Infinity Initiative Roll, who wins',
  summary: "face-to-face d20 against each Lieutenant's WIP, repeated on a tie or double failure",
  source: 'Infinity N4, Initiative and Deployment: Initiative Roll; Face to Face Rolls',
  params: [
    { name: 'wipA', type: 'integer', default: 13, min: 1, max: 30, doc: "player A's Lieutenant's WIP" },
    { name: 'wipB', type: 'integer', default: 13, min: 1, max: 30, doc: "player B's Lieutenant's WIP" },
  ],
  metrics: [{ name: 'a.wins', doc: 'player A wins the Initiative Roll', probability: true }],
  start: () => ({ winner: '' }),
  step(state, dice, p) {
    const a = score(dice.d(20), p.wipA);
    const b = score(dice.d(20), p.wipB);
    if (a === b) return state; // a tie, or both failed: roll again
    return { winner: a > b ? 'a' : 'b' };
  },
  done: (state) => state.winner !== '',
  report(state, _p, out) {
    out['a.wins'] = state.winner === 'a';
  },
};
