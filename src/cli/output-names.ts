/**
 * An output's name must not lie about its format: `card --out w.pdf` would
 * write HTML into a file every viewer opens as a PDF. A name ending in the
 * extension of another format muster knows is refused, before any work
 * starts, pointing to the option that writes that format where the command
 * has one; a name with no extension, or one muster does not know, is taken
 * as given (`--json result.txt`, `--html report`).
 */
import { UsageError } from '../errors.js';

type OutputFormat = 'html' | 'json' | 'csv' | 'pdf' | 'svg';

const EXTENSIONS: Record<OutputFormat, readonly string[]> = {
  html: ['.html', '.htm'],
  json: ['.json'],
  csv: ['.csv'],
  pdf: ['.pdf'],
  svg: ['.svg'],
};

/** Files a muster command never writes, named by their extensions: a name ending so is refused for every output. */
const FOREIGN: Record<string, string> = { '.png': 'PNG image', '.jpg': 'JPEG image', '.jpeg': 'JPEG image' };

const NAMES: Record<OutputFormat, string> = { html: 'HTML', json: 'JSON', csv: 'CSV', pdf: 'PDF', svg: 'SVG' };

interface NamedOutput {
  option: string;
  /** The path as given (undefined when the option was not given; "-" is standard output). */
  path: string | undefined;
  format: OutputFormat;
}

/** The format a file name's extension names, or null. */
function formatNamed(path: string): { format: OutputFormat | null; what: string } | null {
  const lower = path.toLowerCase();
  for (const [format, extensions] of Object.entries(EXTENSIONS) as Array<[OutputFormat, readonly string[]]>) {
    if (extensions.some((extension) => lower.endsWith(extension))) return { format, what: NAMES[format] };
  }
  for (const [extension, what] of Object.entries(FOREIGN)) if (lower.endsWith(extension)) return { format: null, what };
  return null;
}

/** Refuses, in one line, the first output whose name's extension names another format than the one it writes. */
export function checkOutputNames(outputs: readonly NamedOutput[]): void {
  for (const output of outputs) {
    if (output.path === undefined || output.path === '-') continue;
    const named = formatNamed(output.path);
    if (!named || named.format === output.format) continue;
    const writer = outputs.find((other) => other.format === named.format && other.option !== output.option);
    const instead = writer ? `; ${writer.option} ${output.path} writes the ${named.what}` : '';
    throw new UsageError(
      `${output.option}: got ${JSON.stringify(output.path)}, ${article(named.what)} name for ` +
        `${article(NAMES[output.format])} file${instead}; allowed: a name ending ` +
        `${EXTENSIONS[output.format].join(' or ')}, or no extension`,
    );
  }
}

/** "an HTML", "a PDF", "a JPEG image". */
function article(what: string): string {
  return `${/^[AEFHILMNORSX]/.test(what) ? 'an' : 'a'} ${what}`;
}
