// push-your-luck.mjs — roll to build a pot, stop to bank it, bust on a 1 (one turn of the dice game Pig).
//
// A rolls a d6 and adds it to the pot. After each roll A decides: stop and bank the pot, or roll
// again. A 1 busts: the pot is lost and nothing is banked. At `cap` A must stop. When should A stop?
// It depends on what A plays for: the expected pot banked (the default objective), or the chance of
// banking at least `goal` — muster solves either exactly (docs/custom-rules.md, "Decisions"):
//
//   muster run ./examples/rules/push-your-luck.mjs --exact
//   muster run ./examples/rules/push-your-luck.mjs --exact --objective goal.reached

export default {
  id: 'push-your-luck',
  title: 'Push your luck: roll, or stop and bank the pot',
  summary: 'one turn of Pig: stop or roll again, a 1 busts; when to stop, solved exactly',
  source: 'worked example for muster rule files (the dice game Pig, one turn)',
  params: [
    { name: 'cap', type: 'integer', default: 40, min: 2, max: 100, doc: 'the pot at which A must stop' },
    { name: 'goal', type: 'integer', default: 20, min: 1, max: 100, doc: 'the pot goal.reached asks for' },
  ],
  metrics: [
    { name: 'banked', doc: 'the pot A banks (0 after a bust)', probability: false },
    { name: 'goal.reached', doc: 'A banks at least goal', probability: true },
    { name: 'bust', doc: 'A busts', probability: true },
    { name: 'rolls.mean', doc: 'expected rolls', probability: false },
  ],
  headline: ['banked', 'goal.reached', 'bust'],
  objective: 'banked',

  start: () => ({ pot: 0 }),
  // After a roll that leaves a pot, A decides; at the cap the roll itself ends the turn.
  choices: (state) => (state.pot > 0 && !state.rolling ? ['stop', 'roll'] : null),
  choose: (state, option) => (option === 'stop' ? { pot: state.pot, banked: true } : { pot: state.pot, rolling: true }),
  step(state, dice, p, out) {
    out['rolls.mean'] = 1;
    const face = dice.d(6);
    if (face === 1) return { pot: 0, bust: true };
    const pot = state.pot + face;
    return pot >= p.cap ? { pot, banked: true } : { pot };
  },
  done: (state) => state.banked === true || state.bust === true,
  report(state, p, out) {
    out.banked = state.bust ? 0 : state.pot;
    out['goal.reached'] = !state.bust && state.pot >= p.goal;
    out.bust = state.bust === true;
  },
  label: (state) => `pot ${state.pot}`,
};
