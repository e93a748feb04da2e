import fs from 'node:fs';
import path from 'node:path';

/**
 * One way to the database for business code (src/core/db/README.md): the models, or the db helpers
 * (`selectRows`, `execute`) with the area's statements; `sequelize.query` only inside src/core/db.
 */
function directQueries(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.ts') && !file.startsWith('core/db/'))
    .flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\bsequelize\.query\b/.test(line) ? [`${file}:${index + 1}`] : [])),
    );
}

describe('the way to the database', () => {
  it('has no sequelize.query outside src/core/db', () => {
    expect(directQueries(path.resolve(__dirname, '../../src'))).toEqual([]);
  });
});
