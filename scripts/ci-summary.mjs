// The end of CI's output (.ci/run): what did not pass and why, then the plain closing line
// ("N passed, N failed, N skipped"). CI shows only the tail of a run's output, while a test file whose process
// died says so in the middle of it: so the files that did not pass are named again here, and the run's own lines
// about a crash (Node's fatal errors, signals, a worker that exited) are printed again beside them.
//
//   node scripts/ci-summary.mjs VITEST_JSON TEST_LOG EXIT_STATUS
import { readFileSync } from 'node:fs';

const [reportPath, logPath, status] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));
const root = process.cwd();
const shown = (name) => (name.startsWith(`${root}/`) ? name.slice(root.length + 1) : name);

if (status !== '0') {
  const notPassed = report.testResults.filter(
    (file) => file.status !== 'passed' || file.assertionResults.some((test) => test.status === 'failed'),
  );
  const unfinished = report.testResults.filter(
    (file) => file.assertionResults.length > 0 && file.assertionResults.every((test) => test.status === 'pending'),
  );
  const named = [...new Set([...notPassed, ...unfinished])];
  console.log(`\nci-summary: npm test exited ${status}`);
  for (const file of named) {
    const tests = file.assertionResults.filter((test) => test.status !== 'passed');
    const byStatus = new Map();
    for (const test of tests) byStatus.set(test.status, (byStatus.get(test.status) ?? 0) + 1);
    const counts = [...byStatus].map(([what, many]) => `${many} ${what}`);
    console.log(`  ${shown(file.name)}: ${file.status}; ${counts.join(', ') || 'no test reported'}`);
    if (file.message) console.log(`    ${file.message.split('\n').slice(0, 6).join('\n    ')}`);
    for (const test of tests.filter((test) => test.status === 'failed').slice(0, 5))
      console.log(`    ✗ ${test.fullName}\n      ${(test.failureMessages[0] ?? '').split('\n')[0]}`);
  }
  // The lines a dying process leaves: V8's and Node's fatal errors, a signal, vitest's word of a lost worker.
  const telling =
    /FATAL ERROR|Fatal error|Segmentation fault|Aborted|core dumped|heap out of memory|Worker exited|Unhandled Error|unexpectedly|SIGKILL|SIGTERM|SIGABRT|SIGSEGV|ERR_WORKER|Caused by|Serialized Error/;
  const lines = readFileSync(logPath, 'utf8').split('\n');
  const hits = [];
  lines.forEach((line, at) => {
    if (telling.test(line)) hits.push(at);
  });
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
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ` +
    `${report.numPendingTests + report.numTodoTests} skipped`,
);
