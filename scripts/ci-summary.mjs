// The end of CI's output (.ci/run). CI shows only the tail of a run's output, while a test file whose process
// died says so in the middle of it, and vitest's JSON report then counts that file's tests as pending and the
// run as a success. So this script reads the report test by test:
//
//   node scripts/ci-summary.mjs crashed VITEST_JSON TEST_LOG
//     the test files whose process died (vitest: "Worker exited unexpectedly", every test of the file left
//     unrun), one a line, and only when nothing else went wrong: the files .ci/run runs once more
//   node scripts/ci-summary.mjs summary VITEST_JSON TEST_LOG EXIT_STATUS [RERUN_JSON]
//     when the run failed, the files that did not pass, their failures and the run's own lines about a crash
//     (Node's fatal errors, signals, a worker that exited); then the plain closing line
//     ("N passed, N failed, N skipped"), a test of a crashed file counted failed unless its file's rerun
//     (RERUN_JSON) passed it
import { readFileSync } from 'node:fs';

const [mode, reportPath, logPath, status, rerunPath] = process.argv.slice(2);
const root = process.cwd();
const shown = (name) => (name.startsWith(`${root}/`) ? name.slice(root.length + 1) : name);
const readReport = (path) => JSON.parse(readFileSync(path, 'utf8'));
const log = readFileSync(logPath, 'utf8');

const SKIPPED = new Set(['pending', 'skipped', 'todo', 'disabled']);
/** A file none of whose tests ran (none collected, or all left pending), in a run where vitest lost a worker. */
const unrun = (file) => file.assertionResults.every((test) => test.status === 'pending');
const lostWorker = /Worker exited unexpectedly/.test(log);
const failedIn = (file) => file.assertionResults.some((test) => test.status === 'failed');

const report = readReport(reportPath);
const crashed = lostWorker ? report.testResults.filter(unrun) : [];

if (mode === 'crashed') {
  const otherwise = report.testResults.some(
    (file) => !crashed.includes(file) && (file.status !== 'passed' || failedIn(file)),
  );
  if (!otherwise) for (const file of crashed) console.log(shown(file.name));
} else if (mode === 'summary') {
  const rerun = rerunPath ? readReport(rerunPath) : null;
  const rerunOf = (file) => rerun?.testResults.find((again) => shown(again.name) === shown(file.name));
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const file of report.testResults) {
    const counted = crashed.includes(file) ? rerunOf(file) : file;
    // Never ran: its process died (before collecting its tests, at the least one), and again if it was run again.
    if (!counted || (counted !== file && unrun(counted))) {
      counts.failed += Math.max(1, file.assertionResults.length, counted?.assertionResults.length ?? 0);
      continue;
    }
    for (const test of counted.assertionResults) {
      if (test.status === 'passed') counts.passed++;
      else if (SKIPPED.has(test.status)) counts.skipped++;
      else counts.failed++;
    }
  }
  if (status !== '0' || crashed.length > 0) {
    console.log(`\nci-summary: npm test exited ${status}`);
    const named = report.testResults.filter(
      (file) => crashed.includes(file) || file.status !== 'passed' || failedIn(file),
    );
    for (const file of named) {
      const tests = file.assertionResults.filter((test) => test.status !== 'passed');
      const byStatus = new Map();
      for (const test of tests) byStatus.set(test.status, (byStatus.get(test.status) ?? 0) + 1);
      const what = crashed.includes(file)
        ? `its process died before its ${file.assertionResults.length || ''} tests ran`.replace('  ', ' ')
        : [...byStatus].map(([kind, many]) => `${many} ${kind}`).join(', ');
      console.log(`  ${shown(file.name)}: ${what}`);
      if (file.message) console.log(`    ${file.message.split('\n').slice(0, 6).join('\n    ')}`);
      for (const test of tests.filter((test) => test.status === 'failed').slice(0, 5))
        console.log(`    ✗ ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n')[0]}`);
      const again = rerunOf(file);
      if (crashed.includes(file))
        console.log(
          again
            ? `    run once more on its own: ${again.assertionResults.filter((test) => test.status === 'passed').length} of ${again.assertionResults.length} passed`
            : '    not run again',
        );
    }
    // The lines a dying process leaves: V8's and Node's fatal errors, a signal, vitest's word of a lost worker.
    const telling =
      /FATAL ERROR|Fatal error|Segmentation fault|Aborted|core dumped|heap out of memory|Worker exited|Unhandled Error|SIGKILL|SIGTERM|SIGABRT|SIGSEGV|ERR_WORKER|Caused by/;
    const lines = log.split('\n');
    const hits = lines.flatMap((line, at) => (telling.test(line) ? [at] : []));
    if (hits.length > 0) {
      console.log('  the run’s lines about it (line numbers in its output):');
      const printed = new Set();
      for (const at of hits.slice(0, 20)) {
        for (let near = Math.max(0, at - 2); near <= Math.min(lines.length - 1, at + 3); near++) {
          if (printed.has(near)) continue;
          printed.add(near);
          console.log(`    ${String(near + 1).padStart(6)}  ${lines[near].slice(0, 300)}`);
        }
      }
    }
  }
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
} else {
  console.error('usage: node scripts/ci-summary.mjs crashed|summary VITEST_JSON TEST_LOG [EXIT_STATUS [RERUN_JSON]]');
  process.exit(2);
}
