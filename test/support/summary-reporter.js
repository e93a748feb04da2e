const SKIPPED = / \[skipped: (.*)\]$/;

/**
 * The closing lines: one per reason tests were skipped ("jest: 8 skipped, no pgbouncer (…)"), the reason
 * read from the title of the suite that `describeNeeding` skipped, then "jest: N passed, N failed,
 * N skipped", the line CI tools read as the result.
 */
function summaryLines(results) {
  const { numPassedTests, numFailedTests, numPendingTests, numRuntimeErrorTestSuites } = results;
  const reasons = new Map();
  for (const file of results.testResults) {
    for (const test of file.testResults) {
      if (test.status !== 'pending') continue;
      const marked = test.ancestorTitles.map((title) => SKIPPED.exec(title)).find(Boolean);
      const reason = marked ? marked[1] : 'no reason given';
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
  }
  const failed = numFailedTests + numRuntimeErrorTestSuites;
  return [
    ...[...reasons].map(([reason, count]) => `jest: ${count} skipped, ${reason}`),
    `jest: ${numPassedTests} passed, ${failed} failed, ${numPendingTests} skipped`,
  ];
}

class SummaryReporter {
  onRunComplete(_contexts, results) {
    process.stdout.write(
      summaryLines(results)
        .map((line) => `${line}\n`)
        .join(''),
    );
  }
}

module.exports = SummaryReporter;
module.exports.summaryLines = summaryLines;
