/**
 * Report files are built in memory first and written only once everything
 * has been computed and rendered, all or none (src/output/files.ts). This
 * module keeps the name reports/ and other commands import them by.
 */
export { checkOutputDir, type OutputFile, writeOutputs } from '../src/output/files.js';
