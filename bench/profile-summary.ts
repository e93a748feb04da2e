// Summarises V8 CPU profiles written under BENCH_CPU_PROF: where a child's busy time went, by package
// (inclusive: a sample counts for every package on its stack) and by function (self time).
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [--skip-seconds=N] [--until-seconds=N] [--top=N]
// A child serves several loads one after another (the API: status, then verify): --until-seconds ends
// the window before the next, --timeline prints the busy milliseconds of each second to find them.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const NOT_BUSY = new Set(['(idle)', '(program)', '(garbage collector)']);

function packageOf({ url }: ProfileNode['callFrame']): string | null {
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  const inRepository = /\/((?:src|bench)\/.+)$/.exec(url);
  return inRepository ? inRepository[1]! : null;
}

function functionOf({ functionName, url, lineNumber }: ProfileNode['callFrame']): string {
  const where = url.replace(/^.*node_modules\//, '').replace(/^.*\/(src|bench)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
}

function summarise(profile: Profile, fromSeconds: number, untilSeconds: number) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (totals: Map<string, number>, key: string, micros: number) =>
    totals.set(key, (totals.get(key) ?? 0) + micros);

  let at = profile.startTime;
  let busy = 0;
  const bySecond: number[] = [];
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    at += micros;
    const node = nodes.get(id)!;
    const second = (at - profile.startTime) / 1e6;
    if (second < fromSeconds || second >= untilSeconds || NOT_BUSY.has(node.callFrame.functionName)) return;
    bySecond[Math.floor(second)] = (bySecond[Math.floor(second)] ?? 0) + micros;
    busy += micros;
    add(byFunction, functionOf(node.callFrame), micros);
    const packages = new Set<string>();
    for (let current: number | undefined = id; current !== undefined; current = parents.get(current)) {
      const name = packageOf(nodes.get(current)!.callFrame);
      if (name) packages.add(name);
    }
    for (const name of packages) add(byPackage, name, micros);
  });
  return { busy, byPackage, byFunction, bySecond };
}

function printTop(title: string, totals: Map<string, number>, busy: number, top: number): void {
  console.log(title);
  for (const [key, micros] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * micros) / busy).toFixed(1).padStart(6)}%  ${key}`);
  }
}

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  console.error(
    'usage: tsx bench/profile-summary.ts <file.cpuprofile> [--skip-seconds=N] [--until-seconds=N] [--top=N] [--timeline]',
  );
  process.exit(2);
}
const flag = (name: string, fallback: number) =>
  Number(flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const { busy, byPackage, byFunction, bySecond } = summarise(
  profile,
  flag('skip-seconds', 0),
  flag('until-seconds', Infinity),
);
if (flags.includes('--timeline')) {
  console.log('second  busy ms');
  bySecond.forEach((micros, second) =>
    console.log(`${String(second).padStart(6)}  ${(micros / 1000).toFixed(0)}`),
  );
  process.exit(0);
}
const top = flag('top', 20);
console.log(`busy ${(busy / 1000).toFixed(0)} ms (idle, program and GC excluded)`);
printTop('\nby package or file, inclusive:', byPackage, busy, top);
printTop('\nby function, self:', byFunction, busy, top);
