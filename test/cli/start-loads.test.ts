import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BIN = path.resolve(__dirname, '../../bin/premium.js');
const HEAVY = /\/node_modules\/(sequelize|pg|zod|razorpay|ioredis|umzug)\//;

/** The heavy libraries `premium <args>` loaded, as the files node had required by its exit. */
function heavyLibrariesLoadedBy(args: string[]): Promise<{ code: number; loaded: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-loads-'));
  const report = path.join(dir, 'loaded.json');
  const preload = path.join(dir, 'preload.js');
  fs.writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));`,
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--require', preload, BIN, ...args],
      { cwd: dir, env: { PATH: process.env.PATH, NODE_ENV: 'test' } },
      (error) => {
        const files = JSON.parse(fs.readFileSync(report, 'utf8')) as string[];
        const loaded = [...new Set(files.map((file) => HEAVY.exec(file)?.[1]).filter(Boolean))] as string[];
        resolve({ code: error ? Number(error.code) : 0, loaded });
      },
    );
  });
}

// Start time is what the CLI loads (docs/performance.md, "CLI start"): help and usage errors need
// none of the database, configuration or processor libraries.
describe('premium loads only what the command uses', () => {
  it.each([
    ['the help', ['--help'], 0],
    ["a command's help", ['report', 'subscribers', '--help'], 0],
    ['a usage error', ['users', 'show'], 2],
    ["the catalog's help", ['plans', 'add', '--help'], 0],
    [
      'a malformed --feature',
      ['tiers', 'add', 'pro', '--name', 'Pro', '--rank', '2', '--feature', 'music'],
      2,
    ],
  ])('%s loads no database, configuration or processor library', async (_case, args, code) => {
    expect(await heavyLibrariesLoadedBy(args)).toEqual({ code, loaded: [] });
  });
});
