/**
 * "Did you mean …?" for names a user mistyped: rule ids, commands,
 * parameters, metrics. A candidate is suggested when it is within a few
 * edits of what was typed (Damerau–Levenshtein, transpositions counting one),
 * or starts with it.
 */

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest candidates (at most three, nearest first), or none when nothing is close. */
export function closest(typed: string, candidates: readonly string[]): string[] {
  const lower = typed.toLowerCase();
  if (lower === '') return [];
  const limit = Math.max(1, Math.min(3, Math.floor(lower.length / 3)));
  const scored = candidates
    .map((candidate) => {
      const distance = editDistance(lower, candidate.toLowerCase());
      const prefix = candidate.toLowerCase().startsWith(lower) && lower.length >= 2;
      return { candidate, score: prefix ? Math.min(distance, 0.5) : distance };
    })
    .filter(({ score }) => score <= limit)
    .sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
  return scored.slice(0, 3).map(({ candidate }) => candidate);
}

/** " (did you mean x?)", " (did you mean x or y?)", or "" when nothing is close. */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const near = closest(typed, candidates);
  if (near.length === 0) return '';
  const quoted = near.map((name) => JSON.stringify(name));
  return ` (did you mean ${
    quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ` + `${quoted[quoted.length - 1]}`
  }?)`;
}

/**
 * The range muster's syntax writes for one typed in another (`0-4`, `0–4`,
 * `0:4`, `0...4`, `0 to 4` → `0..4`), or null when the text is no such range.
 * @example rangeMeant('0-4') // '0..4'
 */
function rangeMeant(text: string): string | null {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(?:-|–|—|:|~|\.{3,}|to)\s*(-?\d+(?:\.\d+)?)\s*$/i.exec(text);
  return match ? `${match[1]}..${match[2]}` : null;
}

/** " (did you mean 0..4?)" for a range written in another syntax, or "". */
export function didYouMeanRange(text: string, prefix = ''): string {
  const meant = rangeMeant(text);
  return meant ? ` (did you mean ${prefix}${meant}?)` : '';
}

/** Runs a --range parser, adding " (did you mean 8..16?)" to its refusal of a range written in another syntax. */
export function withRangeHint<T>(text: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    const hint = didYouMeanRange(text);
    if (
      !(error instanceof Error) ||
      error.name !== 'UsageError' ||
      hint === '' ||
      error.message.includes('did you mean')
    )
      throw error;
    const at = error.message.indexOf('; allowed:');
    error.message =
      at < 0 ? `${error.message}${hint}` : `${error.message.slice(0, at)}${hint}${error.message.slice(at)}`;
    throw error;
  }
}

/**
 * A word as a POSIX shell reads it back: as it is when it holds only safe
 * characters, else in single quotes (a quote inside as '\'').
 * @example shellWord('./my rules/order-bag.mjs') // "'./my rules/order-bag.mjs'"
 */
export function shellWord(text: string): string {
  if (/^[\w@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * How a hint names a rule so that the command it suggests runs: a rule
 * file by the path the user typed (quoted for a shell where it must be),
 * a built-in rule by its id. A rule file's id alone would be refused.
 */
export function ruleWord(rule: { id: string; file?: { origin: string } }): string {
  return shellWord(rule.file ? rule.file.origin : rule.id);
}
