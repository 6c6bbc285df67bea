/**
 * Flames of War Scattered Reserves (see fow.ts): which die face sends an arriving platoon where, as the
 * `scatter` parameter gives it.
 */
import { badValue, UsageError } from '../../errors.js';

const PLACE = /^[a-z][a-z0-9_-]*$/;
const FACES = /^([1-6])(?:-([1-6]))?$/;
export const SCATTER_ALLOWED =
  'each die face 1-6 given exactly once as face:place or from-to:place, comma-separated; a place is a word ' +
  'of letters, digits, _ or - starting with a letter, kept lowercase (e.g. 1-2:left,3-4:centre,5-6:right)';

/**
 * Parses a scatter map into the place of each face (index 1–6) and returns
 * its canonical text: faces in order, neighbouring faces of one place joined
 * into a range.
 * @example canonicalScatter(' 5-6:right, 1-2:Left,3-4:centre') // '1-2:left,3-4:centre,5-6:right'
 */
export function canonicalScatter(raw: string): string {
  const placeOf: string[] = new Array(7).fill('');
  const fail = () => badValue('scatter', raw, SCATTER_ALLOWED);
  for (const entry of raw.split(',')) {
    const colon = entry.indexOf(':');
    if (colon < 0) throw fail();
    const faces = FACES.exec(entry.slice(0, colon).trim());
    const place = entry
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (!faces || !PLACE.test(place)) throw fail();
    const from = Number(faces[1]);
    const to = faces[2] === undefined ? from : Number(faces[2]);
    if (to < from) throw fail();
    for (let face = from; face <= to; face++) {
      if (placeOf[face] !== '')
        throw new UsageError(
          `scatter: got ${JSON.stringify(raw)}: face ${face} is given twice; allowed: ${SCATTER_ALLOWED}`,
        );
      placeOf[face] = place;
    }
  }
  const missing = [1, 2, 3, 4, 5, 6].filter((face) => placeOf[face] === '');
  if (missing.length > 0)
    throw new UsageError(
      `scatter: got ${JSON.stringify(raw)}: no place for face ${missing.join(', ')}; allowed: ${SCATTER_ALLOWED}`,
    );
  const parts: string[] = [];
  for (let face = 1; face <= 6; ) {
    let last = face;
    while (last < 6 && placeOf[last + 1] === placeOf[face]) last++;
    parts.push(`${last === face ? face : `${face}-${last}`}:${placeOf[face]}`);
    face = last + 1;
  }
  return parts.join(',');
}

/**
 * A canonical scatter map read back: the places in order of their lowest face, and each face's place index (index 1–6).
 */
export function scatterTable(canonical: string): { places: string[]; placeOfFace: Int32Array } {
  const places: string[] = [];
  const placeOfFace = new Int32Array(7);
  for (const entry of canonical.split(',')) {
    const [faces, place] = entry.split(':');
    const [from, to = from] = faces.split('-').map(Number);
    if (!places.includes(place)) places.push(place);
    for (let face = from; face <= to; face++) placeOfFace[face] = places.indexOf(place);
  }
  return { places, placeOfFace };
}
