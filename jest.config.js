/**
 * Three projects: `unit` runs in-process (core, routes through `inject`, the relay, bot-kit) and needs no
 * build; `slow` is in-process too, but each file takes many seconds (thousands of changes, a processor
 * that answers in seconds, a database of its own migrated up and down); `process` holds the tests that
 * need `dist/` or start processes of their own (the CLI, the dev launcher, the browser, private Redis and
 * PgBouncer servers, the compiled server and worker). `npm run test:fast` runs `unit`; `npm test` runs
 * all three after the build.
 */
const PROCESS_TESTS = [
  '<rootDir>/test/cli/',
  '<rootDir>/test/dev/',
  '<rootDir>/test/e2e/',
  '<rootDir>/test/redis/',
  '<rootDir>/test/scaling/',
  '<rootDir>/test/deploy/',
  '<rootDir>/test/deploy.test.ts',
  '<rootDir>/test/metrics/',
  '<rootDir>/test/bot-kit/python-example.test.ts',
  '<rootDir>/test/sandbox/main.test.ts',
  '<rootDir>/test/server/fail-closed.test.ts',
  '<rootDir>/test/server/process.test.ts',
  '<rootDir>/test/server/redis-faults.test.ts',
  '<rootDir>/test/server/sign-in-logs.test.ts',
  '<rootDir>/test/worker/relay-private-redis.test.ts',
  '<rootDir>/test/worker/worker-process.test.ts',
];

const SLOW_TESTS = [
  '<rootDir>/test/bot-kit/convergence.test.ts',
  '<rootDir>/test/core/db/migrations.test.ts',
  '<rootDir>/test/core/db/online-migrations.test.ts',
  '<rootDir>/test/server/payments/create-order-slow-processor.test.ts',
  '<rootDir>/test/worker/reconcile-slow-processor.test.ts',
];

/** The testMatch globs of a list of folders (ending in `/`) and files. */
const matching = (paths) => paths.map((prefix) => (prefix.endsWith('/') ? `${prefix}**/*.test.ts` : prefix));

const project = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...project,
      displayName: 'unit',
      testPathIgnorePatterns: ['/node_modules/', ...PROCESS_TESTS, ...SLOW_TESTS],
    },
    { ...project, displayName: 'slow', testMatch: matching(SLOW_TESTS) },
    { ...project, displayName: 'process', testMatch: matching(PROCESS_TESTS) },
  ],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: 2,
  // A test that hangs fails in 10 s; the files that need longer raise it at the top or per test, saying why.
  testTimeout: 10_000,
};
