// flank-march.mjs — a choice both players make at once: where the attacker sends a flank march,
// and which approach the defender guards.
//
// Before deployment the attacker secretly picks a flank march — left, centre or right — and the
// defender secretly picks one approach to guard. The marching unit arrives on a d6: an open flank on
// 3+, the open centre (a shorter road) on 2+; a guarded flank on 6 only, the guarded centre on 5+.
// Neither pure choice is safe: a fixed march is met, a fixed guard is avoided. So both mix:
//
//   muster matrix ./flank-march.mjs --equilibrium
//
// Worked by hand (the left and right flanks are alike, so each side plays them equally): the
// attacker marches left, centre, right 1/3 each; the defender guards left 2/9, centre 5/9, right
// 2/9; the march arrives with 5/9 (test/analysis/matrix-equilibrium.test.ts checks it).
const APPROACHES = ['left', 'centre', 'right'];

export default {
  id: 'flank-march',
  title: 'Flank march against a guarded approach',
  summary: 'the attacker picks a flank march, the defender an approach to guard, both at once; a d6 decides',
  source: 'worked example for muster rule files (a common pre-battle house rule)',
  params: [
    { name: 'a', type: 'choice', default: 'left', choices: APPROACHES, doc: "the attacker's flank march" },
    { name: 'b', type: 'choice', default: 'centre', choices: APPROACHES, doc: 'the approach the defender guards' },
    { name: 'open', type: 'integer', default: 3, min: 1, max: 7, doc: 'd6 a march needs on an open flank' },
    { name: 'openCentre', type: 'integer', default: 2, min: 1, max: 7, doc: 'd6 a march needs on the open centre' },
    { name: 'guarded', type: 'integer', default: 6, min: 1, max: 7, doc: 'd6 a march needs on a guarded flank' },
    {
      name: 'guardedCentre',
      type: 'integer',
      default: 5,
      min: 1,
      max: 7,
      doc: 'd6 a march needs on the guarded centre',
    },
  ],
  metrics: [
    {
      name: 'a.arrives',
      doc: "the attacker's flank march arrives",
      label: 'the flank march arrives',
      probability: true,
    },
    { name: 'met', doc: 'the defender guards the approach the march takes', probability: true },
  ],
  trial(dice, p, out) {
    const met = p.a === p.b;
    const needs = p.a === 'centre' ? (met ? p.guardedCentre : p.openCentre) : met ? p.guarded : p.open;
    out['a.arrives'] = dice.d(6) >= needs;
    out.met = met;
  },
  matrix: { row: 'a', col: 'b', metrics: ['a.arrives'], values: APPROACHES },
};
