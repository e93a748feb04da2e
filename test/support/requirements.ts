import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A program some tests need beyond PostgreSQL and Redis. Where the machine lacks it, those tests are
 * reported as skipped with one line saying what to install; under `CI=true` they fail saying the same,
 * so that CI never passes without them.
 */
export interface Requirement {
  /** What the tests need, in a few words ("pgbouncer"); also its name in `TEST_WITHOUT`. */
  name: string;
  /** How to get it on Debian/Ubuntu and on macOS. */
  install: string;
  /** Its path, or null when the machine lacks it. */
  find(): string | null;
}

/** Marks a skipped suite's title; the summary reporter counts skipped tests by the reason after it. */
export const SKIPPED_MARK = ' [skipped: ';

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `program` on the PATH or in `extraDirs`, or null. */
export function onPath(program: string, extraDirs: string[] = [], env = process.env): string | null {
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...extraDirs];
  return dirs.map((dir) => path.join(dir, program)).find(isExecutable) ?? null;
}

export const PGBOUNCER: Requirement = {
  name: 'pgbouncer',
  install: 'Debian/Ubuntu: sudo apt install pgbouncer; macOS: brew install pgbouncer',
  // Debian installs it in /usr/sbin, which a user's PATH may lack.
  find: () => onPath('pgbouncer', ['/usr/sbin']),
};

export const PROMTOOL: Requirement = {
  name: 'promtool',
  install: 'Debian/Ubuntu: sudo apt install prometheus; macOS: brew install prometheus',
  find: () => onPath('promtool'),
};

export const PDFTOTEXT: Requirement = {
  name: 'pdftotext',
  install: 'Debian/Ubuntu: sudo apt install poppler-utils; macOS: brew install poppler',
  find: () => onPath('pdftotext'),
};

function importsRedis(python: string): boolean {
  try {
    execFileSync(python, ['-c', 'import redis'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const PYTHON_REDIS: Requirement = {
  name: 'python3-redis',
  install: 'Debian/Ubuntu: sudo apt install python3-redis; macOS: pip3 install redis',
  // The PATH's python3 first; else the system's, where python3-redis installs the module.
  find: () =>
    [onPath('python3'), '/usr/bin/python3'].find((python) => python && importsRedis(python)) ?? null,
};

/**
 * Run where found; else skip, or fail under CI. `TEST_WITHOUT` (names, comma-separated) makes a machine
 * that has the program behave as one without it, to see the skip and CI paths.
 */
export function requirementPlan(
  requirement: Requirement,
  found: string | null,
  env: NodeJS.ProcessEnv = process.env,
): 'run' | 'skip' | 'fail' {
  const without = (env.TEST_WITHOUT ?? '').split(',').map((name) => name.trim());
  if (found && !without.includes(requirement.name)) return 'run';
  return env.CI === 'true' ? 'fail' : 'skip';
}

/** `describe` for tests that need `requirement`: `body` gets the program's path. */
export function describeNeeding(
  requirement: Requirement,
  name: string,
  body: (programPath: string) => void,
): void {
  const found = requirement.find();
  const plan = requirementPlan(requirement, found);
  const missing = `no ${requirement.name} (${requirement.install})`;
  if (plan === 'run') {
    describe(name, () => body(found!));
  } else if (plan === 'fail') {
    describe(name, () => it(`needs ${requirement.name} under CI`, () => expect(missing).toBe('')));
  } else {
    process.stderr.write(`${name}: skipped, ${missing}\n`);
    // Skipped on purpose, on a developer's machine only (under CI, above, it fails).
    const describeSkipped: jest.Describe = describe.skip;
    describeSkipped(`${name}${SKIPPED_MARK}${missing}]`, () => body(''));
  }
}
