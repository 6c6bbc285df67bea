/**
 * Genesys deployment (see deployment.ts) on streams 1 to 4, bit for bit as
 * every result on them was made: one uniform a die, 1 + ⌊6u⌋, trial by
 * trial — each forward player's two dice, then the roll-off's pairs while
 * the totals tie. Stream 5, the default, reads several trials' dice from
 * one output (deployment-digits.ts).
 */

import type { Rng } from '../../contract/types.js';
import { type Deployment, plan } from './params.js';
import { A_INITIATIVE, A_PLACES_LAST, aPlacesLast, forwardZones, ROLLOFF, ZONE_SETS_OF, ZONE_TOTAL } from './zones.js';

/** A chunk's trials into the tally (deployment-zones.ts's layout), one uniform a die. */
export function simulateDieByDie(params: Deployment, rng: Rng, trials: number, tally: Float64Array): void {
  const a = plan(params.a);
  const b = plan(params.b);
  const compareRaw = params.compare === 'raw';
  const lastWithInitiative = aPlacesLast(params, true);
  const lastWithout = aPlacesLast(params, false);
  for (let trial = 0; trial < trials; trial++) {
    const zonesA =
      a.chosen === 0 ? a.zones : forwardZones(a.chosen, 1 + ((rng() * 6) | 0), 1 + ((rng() * 6) | 0), compareRaw);
    const zonesB =
      b.chosen === 0 ? b.zones : forwardZones(b.chosen, 1 + ((rng() * 6) | 0), 1 + ((rng() * 6) | 0), compareRaw);
    const totalA = ZONE_TOTAL[zonesA];
    const totalB = ZONE_TOTAL[zonesB];
    let aHasInitiative = totalA < totalB;
    if (totalA === totalB) {
      tally[ROLLOFF]++;
      let dieA: number;
      let dieB: number;
      do {
        dieA = 1 + ((rng() * 6) | 0);
        dieB = 1 + ((rng() * 6) | 0);
      } while (dieA === dieB);
      aHasInitiative = dieA > dieB;
    }
    if (aHasInitiative) tally[A_INITIATIVE]++;
    if (aHasInitiative ? lastWithInitiative : lastWithout) tally[A_PLACES_LAST]++;
    tally[ZONE_SETS_OF.a + zonesA]++;
    tally[ZONE_SETS_OF.b + zonesB]++;
  }
}
