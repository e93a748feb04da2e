import path from 'node:path';
import { importGraph, type ImportGraph } from './import-graph';

/**
 * The ladder of src/core's areas, bottom first, as src/core/README.md draws it: an area imports at run
 * time only areas on rungs below its own, so no two areas import each other at run time and a change to
 * a rung can break only the rungs above. Areas on one rung do not import each other. Type-only imports
 * may cross (the build erases them). The loose files of src/core are the area `core`.
 */
const LADDER = [
  ['models'],
  ['db'],
  ['core'],
  ['jobs'],
  ['config', 'seller-notices', 'outgoing-webhooks'],
  ['settings', 'buyer-messages'],
  ['users', 'console', 'processor', 'revocation-guard', 'invoices'],
  ['identity', 'premium', 'catalog', 'offers'],
  ['bundles'],
  ['purchase-kinds'],
  ['transfers', 'subscriptions'],
  ['admin'],
  ['orders'],
  ['payments'],
  ['refunds'],
  ['disputes'],
  ['codes', 'bot', 'guard-release', 'reconcile', 'reports', 'retention', 'roles'],
  ['webhooks'],
];

/** The area of a file of src/core (a folder, or `core` for the loose files); undefined outside it. */
function areaOf(file: string): string | undefined {
  const [top, folder, rest] = file.split('/');
  if (top !== 'core') return undefined;
  return rest === undefined ? 'core' : folder;
}

/** Every run-time import from an area into one on its own rung or above (or on no rung). */
function ladderBreaks(graph: ImportGraph, ladder: string[][]): string[] {
  const rungOf = new Map(ladder.flatMap((areas, rung) => areas.map((area) => [area, rung] as const)));
  return [...graph].flatMap(([file, targets]) => {
    const from = rungOf.get(areaOf(file) ?? '');
    return targets
      .filter((target) => {
        const [source, into] = [areaOf(file), areaOf(target)];
        if (source === undefined || into === undefined || source === into) return false;
        const to = rungOf.get(into);
        return from === undefined || to === undefined || to >= from;
      })
      .map((target) => `${file} → ${target}`);
  });
}

/** The areas with files in the graph that the ladder does not place, and the rungs naming no area. */
function misplaced(graph: ImportGraph, ladder: string[][]): { off: string[]; unknown: string[] } {
  const areas = new Set([...graph.keys()].map(areaOf).filter((area) => area !== undefined));
  const placed = ladder.flat();
  return {
    off: [...areas].filter((area) => !placed.includes(area)).sort(),
    unknown: placed.filter((area) => !areas.has(area)),
  };
}

describe('the ladder of src/core', () => {
  const root = path.resolve(__dirname, '../../src');
  const graph = importGraph(root, { runTimeOnly: true });

  it('places every area of src/core on one rung', () => {
    expect(misplaced(graph, LADDER)).toEqual({ off: [], unknown: [] });
    expect(new Set(LADDER.flat()).size).toBe(LADDER.flat().length);
  });

  it('is climbed down only: each area imports at run time only the areas below it', () => {
    expect(ladderBreaks(graph, LADDER)).toEqual([]);
  });

  it('reads type-only imports as no run-time edge', () => {
    // The revocation guard, below premium, names premium's revoke request by a type-only import.
    expect(graph.get('core/revocation-guard/guard.ts')).not.toContain('core/premium/types.ts');
    expect(importGraph(root).get('core/revocation-guard/guard.ts')).toContain('core/premium/types.ts');
  });
});

describe('the ladder rule', () => {
  const ladder = [['db'], ['core'], ['orders'], ['payments', 'refunds']];
  const graph: ImportGraph = new Map([
    ['core/errors.ts', []],
    ['core/db/database.ts', []],
    ['core/orders/lock.ts', ['core/db/database.ts', 'core/errors.ts', 'core/orders/sql.ts']],
    ['core/orders/sql.ts', []],
    ['core/orders/recheck.ts', ['core/payments/apply.ts']],
    ['core/payments/apply.ts', ['core/orders/lock.ts', 'core/refunds/share.ts']],
    ['core/refunds/share.ts', ['core/orders/lock.ts']],
    ['core/catalog/plans.ts', ['core/errors.ts']],
    ['server/main.ts', ['core/payments/apply.ts', 'worker/jobs.ts']],
    ['worker/jobs.ts', []],
  ]);

  it('names an import up the ladder or along a rung, and leaves those down it and outside src/core alone', () => {
    expect(ladderBreaks(graph, ladder)).toEqual([
      'core/orders/recheck.ts → core/payments/apply.ts',
      'core/payments/apply.ts → core/refunds/share.ts',
      'core/catalog/plans.ts → core/errors.ts',
    ]);
  });

  it('names an area on no rung, and a rung naming no area', () => {
    expect(misplaced(graph, [...ladder, ['reports']])).toEqual({ off: ['catalog'], unknown: ['reports'] });
  });
});
