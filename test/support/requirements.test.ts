import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findBrowser } from './browser';
import { onPath, PGBOUNCER, requirementPlan } from './requirements';
// The reporter is plain JavaScript, loaded by jest itself.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { summaryLines } = require('./summary-reporter') as {
  summaryLines(results: object): string[];
};

describe('the programs some tests need', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-requirements-'));
  const program = path.join(dir, 'chromium');
  const notExecutable = path.join(dir, 'readme');
  fs.writeFileSync(program, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(notExecutable, '', { mode: 0o644 });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds a browser at CHROMIUM_PATH first, else at the first usual path with one', () => {
    expect(findBrowser({ CHROMIUM_PATH: program }, [])).toBe(program);
    expect(findBrowser({}, [path.join(dir, 'none'), notExecutable, program])).toBe(program);
    expect(findBrowser({}, [path.join(dir, 'none'), notExecutable])).toBeNull();
    expect(findBrowser({ CHROMIUM_PATH: notExecutable }, [program])).toBeNull();
  });

  it('finds a program on the PATH or in the extra directories, executable only', () => {
    expect(onPath('chromium', [], { PATH: `/nowhere${path.delimiter}${dir}` })).toBe(program);
    expect(onPath('chromium', [dir], { PATH: '' })).toBe(program);
    expect(onPath('readme', [dir], { PATH: dir })).toBeNull();
  });

  it('runs the tests where found, skips them where not, and fails them under CI', () => {
    expect(requirementPlan(PGBOUNCER, program, {})).toBe('run');
    expect(requirementPlan(PGBOUNCER, null, {})).toBe('skip');
    expect(requirementPlan(PGBOUNCER, null, { CI: 'true' })).toBe('fail');
    // TEST_WITHOUT plays a machine without it.
    expect(requirementPlan(PGBOUNCER, program, { TEST_WITHOUT: 'promtool, pgbouncer' })).toBe('skip');
    expect(requirementPlan(PGBOUNCER, program, { TEST_WITHOUT: 'pgbouncer', CI: 'true' })).toBe('fail');
  });

  it('has the summary say how many tests were skipped and why', () => {
    const test = (status: string, ...ancestorTitles: string[]) => ({ status, ancestorTitles });
    const lines = summaryLines({
      numPassedTests: 3,
      numFailedTests: 1,
      numPendingTests: 4,
      numRuntimeErrorTestSuites: 1,
      testResults: [
        {
          testResults: [
            test('pending', 'pg [skipped: no pgbouncer (apt install pgbouncer)]', 'inner'),
            test('pending', 'pg [skipped: no pgbouncer (apt install pgbouncer)]'),
            test('passed', 'other'),
          ],
        },
        { testResults: [test('pending', 'browser [skipped: no chromium (apt install chromium)]')] },
        { testResults: [test('pending', 'a test marked todo')] },
      ],
    });
    expect(lines).toEqual([
      'jest: 2 skipped, no pgbouncer (apt install pgbouncer)',
      'jest: 1 skipped, no chromium (apt install chromium)',
      'jest: 1 skipped, no reason given',
      'jest: 3 passed, 2 failed, 4 skipped',
    ]);
  });
});
