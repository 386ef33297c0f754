import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** One closing line after the list reporter: counts per outcome and the overall verdict. */
export default class SummaryReporter implements Reporter {
  private counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };

  onTestEnd(test: TestCase, result: TestResult) {
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return;
    const outcome = test.outcome();
    if (outcome === 'expected') this.counts[result.status === 'skipped' ? 'skipped' : 'passed'] += 1;
    else if (outcome === 'skipped') this.counts.skipped += 1;
    else if (outcome === 'flaky') this.counts.flaky += 1;
    else this.counts.failed += 1;
  }

  onEnd(result: FullResult) {
    const { passed, failed, skipped, flaky } = this.counts;
    console.log(`e2e ${result.status.toUpperCase()}: ${passed} passed, ${failed} failed, ${flaky} flaky, ${skipped} skipped`);
  }

  printsToStdio() {
    return false;
  }
}
