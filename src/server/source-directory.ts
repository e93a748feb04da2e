import fs from 'node:fs';
import path from 'node:path';

/**
 * A directory of the source tree (`src/server/store/public`, say) from src/ or dist/ alike: pages' files
 * are not TypeScript, so the build leaves them where they are. Found from the package.json above.
 */
export function sourceDirectory(relative: string): string {
  let directory = __dirname;
  while (!fs.existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${__dirname}`);
    directory = parent;
  }
  return path.join(directory, relative);
}
