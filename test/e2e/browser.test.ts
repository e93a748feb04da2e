import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserPlan, findBrowser } from './support/browser';

describe('finding a browser for the browser tests', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-browser-'));
  const browser = path.join(dir, 'chromium');
  const notExecutable = path.join(dir, 'readme');
  fs.writeFileSync(browser, '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(notExecutable, '', { mode: 0o644 });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes CHROMIUM_PATH first, else the first usual path with a browser', () => {
    expect(findBrowser({ CHROMIUM_PATH: browser }, [])).toBe(browser);
    expect(findBrowser({}, [path.join(dir, 'none'), notExecutable, browser])).toBe(browser);
  });

  it('finds none where there is none (a CHROMIUM_PATH that is not a browser included)', () => {
    expect(findBrowser({}, [path.join(dir, 'none'), notExecutable])).toBeNull();
    expect(findBrowser({ CHROMIUM_PATH: notExecutable }, [browser])).toBeNull();
  });

  it('skips the browser tests on a machine without one, and fails them under CI', () => {
    expect(browserPlan(browser, {})).toBe('run');
    expect(browserPlan(null, {})).toBe('skip');
    expect(browserPlan(null, { CI: 'true' })).toBe('fail');
  });
});
