/**
 * One Infinity Initiative Roll (Infinity N4, "Initiative Roll" and the Face to
 * Face Rolls it names), decided branch by branch as the rules say it, without
 * the rule module's face scores or tables: the oracle of infinity-exact.test.ts
 * and of stream 5's reading (infinity-stream5.test.ts).
 */

/** One player's d20 in a Face to Face Roll, read straight from the rules (not from the module's face scores). */
export function faceToFace(
  wip: number,
  die: number,
  crits: boolean,
): { success: boolean; critical: boolean; result: number } {
  if (!crits) return { success: die <= wip, critical: false, result: die };
  const result = wip > 20 ? die + (wip - 20) : die;
  const success = result <= wip;
  return { success, critical: success && (result === wip || result >= 20), result };
}

export type Outcome = 'A' | 'B' | 'again';

/** Who wins one Initiative Roll, branch by branch as the rules say it. */
export function initiativeRoll(
  wipA: number,
  dieA: number,
  wipB: number,
  dieB: number,
  crits: boolean,
): { outcome: Outcome; critical: boolean } {
  const a = faceToFace(wipA, dieA, crits);
  const b = faceToFace(wipB, dieB, crits);
  if (!a.success && !b.success) return { outcome: 'again', critical: false }; // both fail: repeat
  if (a.success && !b.success) return { outcome: 'A', critical: a.critical };
  if (b.success && !a.success) return { outcome: 'B', critical: b.critical };
  if (a.critical && b.critical) return { outcome: 'again', critical: false }; // criticals cancel
  if (a.critical) return { outcome: 'A', critical: true };
  if (b.critical) return { outcome: 'B', critical: true };
  if (a.result > b.result) return { outcome: 'A', critical: false };
  if (b.result > a.result) return { outcome: 'B', critical: false };
  return { outcome: 'again', critical: false }; // a tie
}
