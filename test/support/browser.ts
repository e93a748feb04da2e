import { isExecutable, type Requirement } from './requirements';

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

/** CHROMIUM_PATH when set (and only it), else the first browser on the usual paths; null when none. */
export function findBrowser(
  env: NodeJS.ProcessEnv = process.env,
  paths = USUAL_BROWSER_PATHS,
): string | null {
  if (env.CHROMIUM_PATH) return isExecutable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  return paths.find(isExecutable) ?? null;
}

export const BROWSER: Requirement = {
  name: 'chromium',
  install:
    'Debian/Ubuntu: sudo apt install chromium; macOS: brew install --cask chromium; or set CHROMIUM_PATH to a Chrome',
  find: () => findBrowser(),
};
