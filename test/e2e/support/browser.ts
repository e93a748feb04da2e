import fs from 'node:fs';

/** Where Chromium or Chrome usually is, on Linux and macOS. */
export const USUAL_BROWSER_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

export const INSTALL_HINT =
  'no Chromium or Chrome found: install one (Debian/Ubuntu: sudo apt install chromium; macOS: brew install --cask chromium) or set CHROMIUM_PATH';

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** CHROMIUM_PATH when set (and only it), else the first browser on the usual paths; null when none. */
export function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  paths = USUAL_BROWSER_PATHS,
): string | null {
  if (env.CHROMIUM_PATH) return isExecutable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return paths.find(isExecutable) ?? null;
}

/** Without a browser, the browser tests are skipped on a developer's machine and fail under CI. */
export function browserPlan(
  browser: string | null,
  env: NodeJS.ProcessEnv = process.env,
): 'run' | 'skip' | 'fail' {
  if (browser) return 'run';
  return env.CI === 'true' ? 'fail' : 'skip';
}

/**
 * `describe` for tests that need a real browser: `body` gets its path. Without one, the suite is reported
 * as skipped with one line saying how to install a browser, or, under CI, fails saying the same.
 */
export function describeWithBrowser(name: string, body: (browserPath: string) => void): void {
  const browser = findBrowser();
  const plan = browserPlan(browser);
  if (plan === 'run') {
    describe(name, () => body(browser!));
    return;
  }
  if (plan === 'fail') {
    describe(name, () => it('needs a browser under CI', () => expect(INSTALL_HINT).toBe('a browser')));
    return;
  }
  process.stderr.write(`${name}: skipped, ${INSTALL_HINT}\n`);
  // Reported as skipped on purpose: a developer's machine without a browser (never under CI, above).
  const describeSkipped: jest.Describe = describe.skip;
  describeSkipped(name, () => body(''));
}
