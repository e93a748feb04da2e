import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

describe('the systemd units', () => {
  it.each([
    ['src/server/premium-api.service', 'start'],
    ['src/worker/premium-worker.service', 'worker'],
  ])('%s runs what npm run %s runs, in production, and the README points at it', (unit, script) => {
    const text = read(unit);
    const [, flags, entry] = /^ExecStart=\/usr\/bin\/node ((?:--\S+ )*)(\S+)$/m.exec(text) ?? [];

    expect(scripts[script]).toBe(`node ${flags}${entry}`);
    // `npm test` builds first: the file the unit starts is there after `npm run build`.
    expect(fs.existsSync(path.join(ROOT, entry!))).toBe(true);
    expect(text).toMatch(/^Environment=NODE_ENV=production$/m);
    expect(text).toMatch(/^Restart=always$/m);
    expect(text).toContain('npx premium db migrate');
    expect(read('README.md')).toContain(`](${unit})`);
  });
});
