import path from 'node:path';
import { circles, circleThrough, importGraph, type ImportGraph } from './import-graph';

/**
 * The layering CONTRIBUTING.md asks for, kept by the import graph of src/: no circle between files of
 * different areas (a folder of src/core, or a top-level folder of src/), and no entry point importing
 * another. Code two entry points share goes to src/core or a neutral folder (src/redis, src/metrics).
 */
const ENTRY_POINTS = ['server', 'worker', 'cli', 'sandbox', 'bot-kit'];
/**
 * The bot kit is a library for bots as much as a top-level folder: the sandbox's stand-in bot is built
 * on it as a real bot would be, through its public face only.
 */
const LIBRARY_FACES = ['bot-kit/index.ts'];

function areaOf(file: string): string {
  const [top, folder, rest] = file.split('/');
  return top === 'core' && rest !== undefined ? `core/${folder}` : top!;
}

/** Each circle that crosses areas, as `a → b → … → a` through one of its crossings. */
function crossAreaCircles(graph: ImportGraph): string[] {
  return circles(graph).flatMap((members) => {
    for (const from of members) {
      const to = (graph.get(from) ?? []).find(
        (target) => members.includes(target) && areaOf(target) !== areaOf(from),
      );
      if (to) return [circleThrough(graph, members, from, to).join(' → ')];
    }
    return [];
  });
}

/** Every import from an entry point into another, or from neutral code into an entry point. */
function entryPointImports(graph: ImportGraph): string[] {
  const entryPointOf = (file: string) => ENTRY_POINTS.find((entry) => file.startsWith(`${entry}/`));
  return [...graph].flatMap(([file, targets]) =>
    targets
      .filter((target) => {
        const into = entryPointOf(target);
        return into !== undefined && into !== entryPointOf(file) && !LIBRARY_FACES.includes(target);
      })
      .map((target) => `${file} → ${target}`),
  );
}

describe('the import graph of src/', () => {
  const graph = importGraph(path.resolve(__dirname, '../../src'));

  it('is read whole', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('server/main.ts')).toEqual(expect.arrayContaining(['server/app.ts', 'core/index.ts']));
    // A type-only import is an edge too.
    expect(graph.get('server/app.ts')).toContain('server/app-options.ts');
  });

  it('has no circle between files of different areas', () => {
    expect(crossAreaCircles(graph)).toEqual([]);
  });

  it('has no entry point importing another, and no neutral code importing an entry point', () => {
    expect(entryPointImports(graph)).toEqual([]);
  });
});

describe('the import rules', () => {
  const graph: ImportGraph = new Map([
    ['core/payments/reconcile.ts', ['core/subscriptions/reconcile.ts']],
    ['core/subscriptions/reconcile.ts', ['core/subscriptions/view.ts']],
    ['core/subscriptions/view.ts', ['core/payments/reconcile.ts']],
    ['core/orders/a.ts', ['core/orders/b.ts']],
    ['core/orders/b.ts', ['core/orders/a.ts']],
    ['server/main.ts', ['worker/health-server.ts', 'core/orders/a.ts']],
    ['worker/health-server.ts', []],
    ['sandbox/bot.ts', ['bot-kit/index.ts', 'bot-kit/consumer.ts']],
    ['bot-kit/index.ts', ['bot-kit/consumer.ts']],
    ['bot-kit/consumer.ts', []],
    ['redis/connection.ts', ['server/main.ts']],
  ]);

  it('name a circle that crosses areas by its files, and leave one inside an area alone', () => {
    expect(crossAreaCircles(graph)).toEqual([
      'core/payments/reconcile.ts → core/subscriptions/reconcile.ts → core/subscriptions/view.ts → core/payments/reconcile.ts',
    ]);
  });

  it('name an import into another entry point, past the bot kit’s public face', () => {
    expect(entryPointImports(graph)).toEqual([
      'server/main.ts → worker/health-server.ts',
      'sandbox/bot.ts → bot-kit/consumer.ts',
      'redis/connection.ts → server/main.ts',
    ]);
  });
});
