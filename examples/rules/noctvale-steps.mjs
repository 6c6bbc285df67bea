// noctvale-steps.mjs — Noctvale battle set-up, steps 3, 5 and 6, in the step form, with no exact().
//
//   "3. … initiative goes to the player with the lower activation count … If both players have the
//    same activation count, each player rolls 2d6; the higher result has initiative. Reroll ties."
//   "5. Each player divides their retinue into 3 deployment groups as evenly as possible."
//   "6. Starting with the player with initiative, players alternate setting up one deployment group at a
//    time … until both retinues have been deployed."
//
// The roll-off repeats on a tie, so one step is one roll-off and a tie leads back to where it started;
// muster solves the loop exactly. Readings as the built-in `noctvale` rule takes them: a retinue with
// fewer fighters than groups forms one group per fighter, and a player with no group left is passed over.
// test/rules/enumerate-ports.test.ts checks every value against the built-in's exact().

/** Fighters in each of `groups` deployment groups, largest first (0 for a group a small retinue cannot fill). */
function groupSizes(fighters, groups) {
  const formed = Math.min(groups, fighters);
  return Array.from({ length: groups }, (_, g) =>
    g < formed ? Math.floor(fighters / formed) + (g < fighters % formed ? 1 : 0) : 0,
  );
}

/** Whether A sets up the last group, groups placed in turn from the player with initiative. */
function aPlacesLast(p, aFirst) {
  let leftA = Math.min(p.groups, p.fightersA);
  let leftB = Math.min(p.groups, p.fightersB);
  let aTurn = aFirst;
  let last = null;
  while (leftA + leftB > 0) {
    if (aTurn && leftA > 0) {
      leftA--;
      last = 'a';
    } else if (!aTurn && leftB > 0) {
      leftB--;
      last = 'b';
    }
    aTurn = !aTurn;
  }
  return last === 'a';
}

export default {
  id: 'noctvale-steps',
  title: 'Noctvale initiative and deployment groups (step form)',
  summary:
    'Noctvale setup: initiative to the lower activation count (2d6 roll-off on equal counts), retinues in ' +
    'deployment groups placed alternately',
  source: 'Noctvale, Standard Battle Set-Up, steps 3, 5 and 6',
  params: [
    {
      name: 'fightersA',
      type: 'integer',
      default: 8,
      min: 1,
      max: 60,
      doc: "fighters in A's retinue, its activation count at deployment",
    },
    { name: 'fightersB', type: 'integer', default: 8, min: 1, max: 60, doc: "fighters in B's retinue" },
    {
      name: 'groups',
      type: 'integer',
      default: 3,
      min: 1,
      max: 10,
      doc: 'deployment groups per retinue (the text: 3)',
    },
  ],
  metrics(p) {
    const list = [
      { name: 'a.initiative', doc: 'player A has initiative', probability: true },
      {
        name: 'rolloffs.mean',
        doc: 'expected 2d6 roll-offs until initiative is decided (0 when the counts differ)',
        probability: false,
      },
    ];
    for (let g = 1; g <= p.groups; g++)
      list.push({
        name: `a.group.${g}.size`,
        doc: `fighters in A's deployment group ${g}, largest first`,
        probability: false,
      });
    for (let g = 1; g <= p.groups; g++)
      list.push({
        name: `b.group.${g}.size`,
        doc: `fighters in B's deployment group ${g}, largest first`,
        probability: false,
      });
    list.push({ name: 'a.placesLast', doc: 'player A sets up the final deployment group', probability: true });
    return list;
  },
  headline: ['a.initiative', 'a.placesLast', 'rolloffs.mean'],

  // The state: who has initiative, or 'rolling' while a roll-off is still to decide it.
  start: (p) => (p.fightersA < p.fightersB ? 'a' : p.fightersA > p.fightersB ? 'b' : 'rolling'),
  step(state, dice, p, out) {
    out['rolloffs.mean'] = 1; // one roll-off a step; what steps write adds up
    const a = dice.d(6) + dice.d(6);
    const b = dice.d(6) + dice.d(6);
    return a > b ? 'a' : a < b ? 'b' : 'rolling'; // "Reroll ties."
  },
  done: (state) => state !== 'rolling',
  report(state, p, out) {
    out['a.initiative'] = state === 'a';
    out['a.placesLast'] = aPlacesLast(p, state === 'a');
    groupSizes(p.fightersA, p.groups).forEach((size, g) => (out[`a.group.${g + 1}.size`] = size));
    groupSizes(p.fightersB, p.groups).forEach((size, g) => (out[`b.group.${g + 1}.size`] = size));
  },
};
