/**
 * The --html, --svg and --csv options of `muster run`: paths checked before
 * any work starts (bad input exits 2 and writes nothing), files rendered in
 * memory once the result exists, then written atomically.
 */
import type { Io } from '../src/cli/io.js';
import { checkOutputFile } from '../src/output/files.js';
import { checkOutputDir, writeOutputs, type OutputFile } from './outputs.js';
import { STDOUT } from '../src/output/files.js';
import type { ReportPaths } from './run-report.js';

/** Checks --html FILE, --svg DIR and --csv FILE up front. */
export function checkReportPaths(options: { html?: string; svg?: string; csv?: string }): ReportPaths {
  return {
    ...(options.html === undefined ? {} : { html: checkOutputFile('--html', options.html) }),
    ...(options.svg === undefined ? {} : { svgDir: checkOutputDir('--svg', options.svg) }),
    ...(options.csv === undefined ? {} : { csv: checkOutputFile('--csv', options.csv, { stdout: true }) }),
  };
}

/** Writes the files and says where, one line each (SVGs as one line per folder). */
export function writeReports(files: readonly OutputFile[], io: Io, quiet: boolean): void {
  if (files.length === 0) return;
  writeOutputs(files, io.out);
  if (quiet) return;
  const svgs = files.filter((file) => file.path.endsWith('.svg'));
  for (const file of files) if (!file.path.endsWith('.svg') && file.path !== STDOUT) io.err(`wrote ${file.path}\n`);
  if (svgs.length > 0) io.err(`wrote ${svgs.length} SVG chart${svgs.length === 1 ? '' : 's'}: ${svgs.map((file) => file.path).join(', ')}\n`);
}
