/**
 * Prints one plain closing line, "jest: N passed, N failed, N skipped", that CI tools read as the result.
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numRuntimeErrorTestSuites } = results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stdout.write(`jest: ${numPassedTests} passed, ${failed} failed, ${numPendingTests} skipped\n`);
  }
}

module.exports = SummaryReporter;
