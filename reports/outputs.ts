/**
 * Report files are built in memory first and written only once everything
 * has been computed and rendered, all or none (src/output/files.ts). This
 * module keeps the name reports/ and other commands import them by.
 */
export { checkOutputDir, writeOutputs, type OutputFile } from '../src/output/files.js';
