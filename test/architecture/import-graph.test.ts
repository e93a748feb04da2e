import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importGraph } from './import-graph';

/** A tree of files on disk, one per entry, for importGraph to read. */
function tree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('the import graph reads every way a file names another', () => {
  const root = tree({
    'core/a/static.ts': "import { x } from '../b/with-suffix.js';\nexport const y = x;\n",
    'core/a/equals.ts': "import b = require('../b/equals');\nexport const y = b;\n",
    'core/a/reexport.ts': "export { x } from '../b/reexport.js';\nexport * from '../b/star';\n",
    'core/a/dynamic.ts': "export const load = () => import('../b/dynamic.js');\n",
    'core/a/required.ts': "export const load = () => require('../b/required');\n",
    'core/a/types.ts':
      "import type { X } from '../b/types-only.js';\nimport type c = require('../b/types-equals');\n" +
      "export type { Y } from '../b/types-export';\nexport type Z = X | typeof c;\n",
    'core/a/folder.ts': "import { x } from '../b/index.js';\nexport const y = x;\n",
    'server/public/app.js': "import { z } from './util.js';\nconsole.log(z);\n",
    'server/public/util.js': 'export const z = 1;\n',
    ...Object.fromEntries(
      [
        'with-suffix',
        'equals',
        'reexport',
        'star',
        'dynamic',
        'required',
        'types-only',
        'types-equals',
        'types-export',
        'index',
      ].map((name) => [`core/b/${name}.ts`, 'export const x = 1;\n']),
    ),
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it.each([
    ['import … from ./x.js', 'core/a/static.ts', 'core/b/with-suffix.ts'],
    ['import x = require()', 'core/a/equals.ts', 'core/b/equals.ts'],
    ['export … from ./x.js', 'core/a/reexport.ts', 'core/b/reexport.ts'],
    ['export * from', 'core/a/reexport.ts', 'core/b/star.ts'],
    ['import(./x.js)', 'core/a/dynamic.ts', 'core/b/dynamic.ts'],
    ['require()', 'core/a/required.ts', 'core/b/required.ts'],
    ['a folder’s index.js', 'core/a/folder.ts', 'core/b/index.ts'],
    ['a .js file importing another', 'server/public/app.js', 'server/public/util.js'],
  ])('%s is an edge at run time and in the whole graph', (_form, from, to) => {
    expect(importGraph(root, { runTimeOnly: true }).get(from)).toContain(to);
    expect(importGraph(root).get(from)).toContain(to);
  });

  it('leaves type-only imports out at run time, and keeps them in the whole graph', () => {
    const typeOnly = ['core/b/types-only.ts', 'core/b/types-equals.ts', 'core/b/types-export.ts'];
    expect(importGraph(root, { runTimeOnly: true }).get('core/a/types.ts')).toEqual([]);
    expect(importGraph(root).get('core/a/types.ts')).toEqual(expect.arrayContaining(typeOnly));
  });
});
