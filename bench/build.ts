import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Cleanup } from './cleanup';

const ROOT = path.resolve(__dirname, '..');

/**
 * Compiles the service and the bench's child programs into `.bench-build/<id>` (never the tests' `dist/`),
 * so that every child runs as production runs it, without the tsx loader, whose thread and caches would
 * count in each process's memory and CPU. Inside the repository, so that the compiled files find
 * node_modules; removed at the end.
 */
export async function buildChildren(id: string, cleanup: Cleanup): Promise<string> {
  const outDir = path.join(ROOT, '.bench-build', id);
  cleanup.add(`remove ${path.relative(ROOT, outDir)}`, async () => {
    await fs.rm(outDir, { recursive: true, force: true });
    // Only when empty: another run's build may be in it.
    await fs.rmdir(path.dirname(outDir)).catch(() => undefined);
  });
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await promisify(execFile)(process.execPath, [tsc, '-p', 'bench/tsconfig.build.json', '--outDir', outDir], {
    cwd: ROOT,
  });
  return outDir;
}
