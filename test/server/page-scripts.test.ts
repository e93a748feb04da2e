import fs from 'node:fs';
import path from 'node:path';

/**
 * The store's and the console's pages load their scripts as classic scripts, which share one global
 * scope: a name two of them declare at top level stops the second with a SyntaxError in the browser.
 */
function namesDeclaredTwice(folder: string): string[] {
  const declared = new Map<string, string[]>();
  for (const file of fs
    .readdirSync(folder)
    .filter((name) => name.endsWith('.js'))
    .sort()) {
    const text = fs.readFileSync(path.join(folder, file), 'utf8');
    for (const [, name] of text.matchAll(
      /^(?:const|let|var|class|(?:async )?function\*?) ([A-Za-z_$][\w$]*)/gm,
    )) {
      declared.set(name!, [...(declared.get(name!) ?? []), file]);
    }
  }
  return [...declared]
    .filter(([, files]) => files.length > 1)
    .map(([name, files]) => `${name}: ${files.join(', ')}`);
}

const PUBLIC = path.resolve(__dirname, '../../src/server');

describe("the pages' classic scripts", () => {
  it.each(['store/public', 'console/public'])('in %s declare each top-level name once', (folder) => {
    expect(namesDeclaredTwice(path.join(PUBLIC, folder))).toEqual([]);
  });
});
