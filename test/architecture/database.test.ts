import fs from 'node:fs';
import path from 'node:path';

/**
 * One way to the database for business code (src/core/db/README.md): the models, or the db helpers
 * (`selectRows`, `execute`) with the area's statements; `sequelize.query` only inside src/core/db, and
 * advisory locks only through `db/advisory-locks.ts`. The lines of a .ts file under `root` (but those
 * `allowed`) that match `pattern`, as `file:line`.
 */
function linesMatching(root: string, pattern: RegExp, allowed: (file: string) => boolean): string[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !allowed(file))
    .flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}`] : [])),
    );
}

describe('the way to the database', () => {
  const root = path.resolve(__dirname, '../../src');

  it('has no sequelize.query outside src/core/db', () => {
    expect(linesMatching(root, /\bsequelize\.query\b/, (file) => file.startsWith('core/db/'))).toEqual([]);
  });

  it('takes every advisory lock through the one registry of lock classes', () => {
    const registry = (file: string) => file === 'core/db/advisory-locks.ts';
    expect(linesMatching(root, /pg_(try_)?advisory/, registry)).toEqual([]);
  });
});
