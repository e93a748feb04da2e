import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The most lines a file under src may have: past it, a file does more than one thing (CONTRIBUTING.md). */
const MAX_LINES = 400;

/** Every file under `root` (code, static assets, anything) longer than `max` lines, with its length. */
function longFiles(root: string, max: number): string[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8', withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort()
    .flatMap((file) => {
      const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
      const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
      return count > max ? [`${file}: ${count} lines`] : [];
    });
}

describe('the files under src', () => {
  it(`are each at most ${MAX_LINES} lines`, () => {
    expect(longFiles(path.resolve(__dirname, '../../src'), MAX_LINES)).toEqual([]);
  });
});

describe('the length rule', () => {
  it('names every kind of file past the limit, and leaves one at the limit alone', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'file-size-'));
    const write = (file: string, lines: number) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), 'x\n'.repeat(lines));
    };
    write('core/at-limit.ts', 3);
    write('core/long.ts', 4);
    write('server/public/long.js', 5);
    write('server/public/long.css', 4);
    try {
      expect(longFiles(root, 3)).toEqual([
        'core/long.ts: 4 lines',
        'server/public/long.css: 4 lines',
        'server/public/long.js: 5 lines',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
