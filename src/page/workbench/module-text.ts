/**
 * A rule file written in the page, turned into code its sandbox worker can
 * run. A page opened from file:// cannot import a module from a Blob URL
 * (Chromium refuses module workers and import() there: the page's origin is
 * opaque), so the file's text becomes the body of a function instead,
 * compiled by the worker's eval (the page's policy has 'unsafe-eval' for
 * vega already). Every line keeps its number, so a syntax error's line is
 * the line in the editor.
 *
 *   export default { … }        ─► __musterModule.default = { … }
 *   export const|function|class ─► const|function|class (the name stays in scope)
 *   import …                    ─► refused: a rule written in the page is one file
 *
 * Only a statement starting its line is rewritten, as rule files write them;
 * a rule that hides `export default` in a template string gets a syntax
 * error, never more power: whatever the text becomes runs in the sandbox.
 */

/** The name the wrapped code assigns the default export to. */
export const MODULE_NAME = '__musterModule';

/** Lines before the file's first line in the wrapped code: a syntax error's line number is the editor's plus this. */
export const WRAPPER_LINES = 1;

export type ScriptOf = { code: string } | { problem: string; line: number };

const IMPORT = /^\s*import\s*(?:[\w${},*\s]+from\s*)?['"]/;
const DEFAULT = /^(\s*)export\s+default\b/;
const NAMED = /^(\s*)export\s+(?=(?:const|let|var|function|async\s+function|class)\b)/;
const OTHER_EXPORT = /^\s*export\b/;

/** The wrapped code, a function expression of MODULE_NAME, or the first line the page cannot take and why. */
export function scriptOf(source: string): ScriptOf {
  const lines = source.split('\n');
  let defaults = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (IMPORT.test(line))
      return {
        problem:
          'import is not available in the page (a rule written here is one file); allowed: the helpers in the same ' +
          'file',
        line: index + 1,
      };
    if (DEFAULT.test(line)) {
      defaults += 1;
      // V8's own words for the same file imported by muster run.
      if (defaults > 1)
        return { problem: "SyntaxError: Identifier '.default' has already been declared", line: index + 1 };
      lines[index] = line.replace(DEFAULT, `$1${MODULE_NAME}.default =`);
    } else if (NAMED.test(line)) {
      lines[index] = line.replace(NAMED, '$1');
    } else if (OTHER_EXPORT.test(line)) {
      return {
        problem: 'only export default { … } (and export before a declaration) is read in the page',
        line: index + 1,
      };
    }
  }
  return { code: `(function (${MODULE_NAME}) { 'use strict';\n${lines.join('\n')}\n})` };
}
