import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { compiledPath } from '../children';
import type { BenchEnvironment } from '../environment';
import type { Figure, Section } from '../report';
import { preciseNow } from '../wait';
import { spread } from '../stats';

/** Starts of each command per run; the run's figure is their median, as the "median of five". */
const STARTS_PER_RUN = 5;

interface Start {
  label: string;
  args: string[];
}

/**
 * The baseline is node itself starting and exiting, measured in the same run, interleaved with the CLI's
 * commands, so that a busy machine slows all of them alike. The CLI runs compiled, as `npx premium`
 * runs `dist/`, from an empty directory (no developer's `.env` or `.dev/env`), against the bench's
 * migrated (empty) database under NODE_ENV=development.
 */
function starts(checkout: string): Start[] {
  const cli = compiledPath('src/cli/main.ts');
  return [
    { label: "node -e ''", args: ['-e', ''] },
    { label: 'CLI --help', args: [cli, '--help'] },
    {
      label: 'npx premium --help beside npm run dev',
      args: [path.join(checkout, 'bin/premium.js'), '--help'],
    },
    { label: 'CLI report subscribers --json', args: [cli, 'report', 'subscribers', '--json'] },
  ];
}

/**
 * A checkout as `npm run dev` leaves it once it has built the CLI: the repository's bin/, sources and
 * node_modules, and its build (the bench's, just compiled, so newer than every source) as dist/. What
 * `npx premium` runs there is bin/premium.js, with its check that the build is fresh.
 */
function devCheckout(): string {
  const root = path.resolve(__dirname, '..', '..');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-bench-dev-'));
  // Copied: node runs a linked script from its real path, which would find the repository's own dist/.
  fs.cpSync(path.join(root, 'bin'), path.join(dir, 'bin'), { recursive: true });
  for (const linked of ['src', 'migrations', 'node_modules'])
    fs.symlinkSync(path.join(root, linked), path.join(dir, linked));
  fs.symlinkSync(
    path.dirname(path.dirname(path.dirname(compiledPath('src/cli/main.ts')))),
    path.join(dir, 'dist'),
  );
  return dir;
}

/** Wall time from spawning `node <args>` to its exit, in ms; a failure voids the run. */
async function timeStart(args: string[], env: BenchEnvironment): Promise<number> {
  const startedAt = preciseNow();
  await promisify(execFile)(process.execPath, args, {
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH, NODE_ENV: 'development', DATABASE_URL: env.databaseUrl },
  });
  return preciseNow() - startedAt;
}

export async function benchCliStart(env: BenchEnvironment, runs: number): Promise<Section> {
  const checkout = devCheckout();
  try {
    return await timeStarts(starts(checkout), env, runs);
  } finally {
    fs.rmSync(checkout, { recursive: true, force: true });
  }
}

async function timeStarts(commands: Start[], env: BenchEnvironment, runs: number): Promise<Section> {
  // One start of each first: the page cache holds the files every later start reads.
  for (const { args } of commands) await timeStart(args, env);
  const medians = commands.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    const times = commands.map(() => [] as number[]);
    for (let start = 0; start < STARTS_PER_RUN; start++) {
      for (const [i, { args }] of commands.entries()) times[i]!.push(await timeStart(args, env));
    }
    times.forEach((values, i) => medians[i]!.push(spread(values).median));
  }
  const [baseline, help, devHelp, subscribers] = medians as [number[], number[], number[], number[]];
  const ratio = (values: number[]) => values.map((value, run) => value / baseline[run]!);
  const figures: Figure[] = [
    { name: commands[0]!.label, unit: 'ms', runs: baseline },
    { name: commands[1]!.label, unit: 'ms', runs: help, target: { op: '<=', value: 200 } },
    { name: `${commands[1]!.label} / node -e ''`, unit: 'ratio', runs: ratio(help) },
    { name: commands[2]!.label, unit: 'ms', runs: devHelp, target: { op: '<=', value: 300 } },
    { name: commands[3]!.label, unit: 'ms', runs: subscribers, target: { op: '<=', value: 600 } },
    { name: `${commands[3]!.label} / node -e ''`, unit: 'ratio', runs: ratio(subscribers) },
  ];
  return {
    title: 'CLI start',
    setup: `wall time from spawn to exit, median of ${STARTS_PER_RUN} starts per run, compiled CLI`,
    figures,
  };
}
