import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { json, premium } from '../support/cli';
import { useTestCore } from '../support/context';

// Runs the built CLI as a child process: a few seconds on the shared 2-core machine.
jest.setTimeout(60_000);

useTestCore();

// What `premium report subscribers` spends its start on (docs/performance.md, "CLI start").
describe('premium report subscribers starts with what it needs', () => {
  it("answers without loading Node's fetch, which pg's runtime probe would load on Node 20", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-report-start-'));
    const loaded = path.join(dir, 'loaded.json');
    const preload = path.join(dir, 'preload.js');
    fs.writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(process.moduleLoadList)));`,
    );

    const run = await premium(['report', 'subscribers', '--json'], { NODE_OPTIONS: `--require ${preload}` });

    expect(run.code).toBe(0);
    expect(json(run)).toMatchObject({ live: 0, mrr: 0 });
    const modules = JSON.parse(fs.readFileSync(loaded, 'utf8')) as string[];
    expect(modules.filter((name) => name.includes('undici'))).toEqual([]);
  });
});
