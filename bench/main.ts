import path from 'node:path';
import { benchApi } from './api/suite';
import { buildChildren } from './build';
import { benchCliStart } from './cli/start';
import { runChildrenFrom, stopAllChildren } from './children';
import { Cleanup } from './cleanup';
import { createBenchEnvironment, type BenchEnvironment } from './environment';
import { describeMachine } from './machine';
import { benchRelayDrain } from './relay/drain';
import { benchRelayLatency } from './relay/latency';
import { describeMachineLine, renderTable, writeResults, type Section } from './report';

const RESULTS_FILE = path.join(__dirname, 'results.json');

const SUITES: Record<string, (env: BenchEnvironment, runs: number) => Promise<Section>> = {
  drain: benchRelayDrain,
  latency: benchRelayLatency,
  api: benchApi,
  cli: benchCliStart,
};

/** BENCH_RUNS (default 3): runs per figure. BENCH_ONLY (e.g. `drain,api`): a subset, not written to results.json. */
function options() {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('BENCH_RUNS must be a whole number of at least 1');
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !(name in SUITES)) ?? [];
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_ONLY: unknown suite(s) ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`,
    );
  }
  return { runs, suites: Object.keys(SUITES).filter((name) => only?.includes(name) ?? true) };
}

async function main(): Promise<void> {
  const { runs, suites } = options();
  const cleanup = new Cleanup();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // Not `once`: a second signal (tsx relays the terminal's to its child) must not kill the cleanup.
    process.on(signal, () => {
      console.error(`\n${signal}: cleaning up`);
      void cleanup.run().finally(() => process.exit(130));
    });
  }
  const startedAt = new Date();
  try {
    const env = await createBenchEnvironment(cleanup);
    console.error('compiling the service for the child processes…');
    runChildrenFrom(await buildChildren(env.id, cleanup));
    cleanup.add('stop the child processes', stopAllChildren);
    const machine = await describeMachine(env);
    console.log(`${describeMachineLine(machine)}\n${runs} run(s) per figure`);
    const sections: Section[] = [];
    for (const name of suites) {
      console.log(`${name}…`);
      sections.push(await SUITES[name]!(env, runs));
    }
    const durationSeconds = Math.round((Date.now() - startedAt.getTime()) / 1000);
    console.log(`\n${renderTable(sections)}\n\n${durationSeconds} s in all`);
    if (suites.length === Object.keys(SUITES).length) {
      writeResults(RESULTS_FILE, { machine, startedAt, durationSeconds, runs, sections });
      console.log(`written to ${path.relative(process.cwd(), RESULTS_FILE)}`);
    }
  } finally {
    await cleanup.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
