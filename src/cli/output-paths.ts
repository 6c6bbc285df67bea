/**
 * The output options of `muster run` (--html, --svg, --csv) and of sweeps and
 * comparisons (--json, --html, --csv): paths checked before
 * any work starts (bad input exits 2 and writes nothing), files rendered in
 * memory once the result exists, then written atomically.
 */

import { checkDistinct, checkOutputFile, type InputFile } from '../output/files.js';
import type { Io } from '../output/io.js';
import { terminalLine } from '../output/terminal.js';

export { ruleFileInputs } from '../output/files.js';

import type { ReportPaths } from '../../reports/run-report.js';
import { checkOutputDir, type OutputFile, STDOUT, writeOutputs } from '../output/files.js';
import { checkOutputNames } from './output-names.js';

/** The --json, --html and --csv of a sweep or a comparison (whole, or merged from its shards). */
export interface GridPaths {
  json?: string;
  html?: string;
  csv?: string;
}

/**
 * Checks a sweep's or a comparison's --json, --html and --csv up front, in
 * that order, and that no two of them, nor one of them and an input (a
 * shard being merged), are the same file, and that no name's extension names
 * another format (output-names.ts).
 */
export function checkGridPaths(options: GridPaths, inputs: readonly InputFile[] = []): GridPaths {
  const paths: GridPaths = {
    json: options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true }),
    html: options.html === undefined ? undefined : checkOutputFile('--html', options.html),
    csv: options.csv === undefined ? undefined : checkOutputFile('--csv', options.csv, { stdout: true }),
  };
  checkDistinct(
    [
      { option: '--json', path: paths.json },
      { option: '--html', path: paths.html },
      { option: '--csv', path: paths.csv },
    ],
    inputs,
  );
  checkOutputNames([
    { option: '--json', path: options.json, format: 'json' },
    { option: '--html', path: options.html, format: 'html' },
    { option: '--csv', path: options.csv, format: 'csv' },
  ]);
  return paths;
}

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
  // A path is user text: one line, whatever it holds.
  for (const file of files)
    if (!file.path.endsWith('.svg') && file.path !== STDOUT) io.err(`wrote ${terminalLine(file.path)}\n`);
  if (svgs.length > 0)
    io.err(
      `wrote ${svgs.length} SVG chart${svgs.length === 1 ? '' : 's'}: ` +
        `${svgs.map((file) => terminalLine(file.path)).join(', ')}\n`,
    );
}
