import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import * as prettier from 'prettier';
import { Sequelize } from 'sequelize';
import { PremiumMemory } from '../../src/bot-kit/memory';
import { createCore } from '../../src/core';
import { createMigrator } from '../../src/core/db/migrator';
import { initModels } from '../../src/core/models';
import { razorpayClientFor } from '../../src/core/payments/processor';
import { startSandbox } from '../../src/sandbox';
import { createDatabase, databaseUrl, dropDatabase } from '../../test/support/databases';
import { testConfig } from '../../test/support/context';
import { deleteKeys } from '../environment';
import { measureOverHttp } from './http';
import { measureDatabase, type Measure } from './measures';
import { seedScale } from './seed';
import { measureSlowReconcile } from './slow-reconcile';

/**
 * `npm run bench:scale`: the scheduled jobs and operator reads at two sizes of database, seeded by SQL
 * alone, and the ratio of their figures. SCALE_SMALL (10,000) and SCALE_USERS (1,000,000) users;
 * the rest in the proportions of bench/scale/seed.ts. Results in bench/scale/results.json.
 */
const SMALL = Number(process.env.SCALE_SMALL ?? 10_000);
const LARGE = Number(process.env.SCALE_USERS ?? 1_000_000);
const DEPLOYED = '011-dispute-history';
const RESULTS_FILE = path.join(__dirname, 'results.json');
const BOT_KIT_RECORDS = 300_000;

/** What SCALE_ONLY may name: the jobs and reads in core, the routes over HTTP, the slow reconcile. */
const PARTS = ['core', 'http', 'reconcile'] as const;
const ONLY = process.env.SCALE_ONLY?.split(',') ?? [...PARTS];
const runs = (part: (typeof PARTS)[number]) => ONLY.includes(part);
/** This run's id, in its databases' names and its Redis keys' prefix: no test run or other bench shares them. */
const RUN_ID = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** One seeded, migrated database with a sandbox and a core on it, and the measures taken there so far. */
interface Size {
  users: number;
  seedSeconds: number;
  migrateSeconds: number;
  measures: Measure[];
  /** Load average after each part measured here. */
  loadAverage: Record<string, number[]>;
  run(part: (typeof PARTS)[number]): Promise<void>;
  close(): Promise<void>;
}

async function openSize(users: number): Promise<Size> {
  const name = `premium_scale_${RUN_ID}_${users}`;
  const keyPrefix = `premium:scale:${RUN_ID}:${users}:`;
  const url = databaseUrl(name);
  const dropped = async () => {
    await dropDatabase(name);
    const redis = new Redis(testConfig().redisUrl);
    await deleteKeys(redis, `${keyPrefix}*`);
    redis.disconnect();
  };
  await createDatabase(name);
  const plain = new Sequelize(url, { dialect: 'postgres', logging: false });
  let seedSeconds: number;
  let migrateSeconds: number;
  try {
    await createMigrator(plain).up({ to: DEPLOYED });
    let started = Date.now();
    await seedScale(plain, users, (step) => console.error(`  seeding ${users}: ${step}`));
    seedSeconds = (Date.now() - started) / 1000;
    started = Date.now();
    await createMigrator(plain).up();
    migrateSeconds = (Date.now() - started) / 1000;
    // Vacuumed as a database that has lived is: freshly loaded tables otherwise bring autovacuum (and
    // the first reads' hint-bit writes) into the middle of the measures, at the large size only.
    await plain.query('VACUUM (ANALYZE)');
  } catch (error) {
    await plain.close();
    await dropped();
    throw error;
  }
  await plain.close();
  process.env.TEST_RUN_ID = 'scale';
  const { discord, razorpay, planPrices } = testConfig({ DATABASE_URL: url });
  const sandbox = await startSandbox({ discord, razorpay, subscriptionPlans: planPrices });
  const core = createCore(
    testConfig({
      DATABASE_URL: url,
      RAZORPAY_API_URL: sandbox.razorpayApiUrl,
      PROVIDER_TIMEOUT_MS: '30000',
      REDIS_KEY_PREFIX: keyPrefix,
      EVENTS_STREAM: `${keyPrefix}events`,
      BOT_API_TOKEN: randomBytes(24).toString('hex'),
      RATE_LIMIT_PER_MINUTE: '1000000000',
      BOT_RATE_LIMIT_PER_MINUTE: '1000000000',
    }),
  );
  const processor = razorpayClientFor(core.config);
  const measures: Measure[] = [];
  const loadAverage: Record<string, number[]> = {};
  const add = (measure: Measure) => {
    measures.push(measure);
    console.error(`  ${users}: ${measure.name}: ${measure.value.toFixed(3)} ${measure.unit}`);
  };
  const parts = {
    reconcile: () => measureSlowReconcile(core, processor, sandbox, add),
    core: () => measureDatabase(core, users, add),
    http: () => measureOverHttp(core, processor, sandbox, users, add),
  };
  return {
    users,
    seedSeconds,
    migrateSeconds,
    measures,
    loadAverage,
    async run(part) {
      // Sequelize's models belong to the last connection they were bound to, whichever size that was.
      initModels(core.sequelize);
      await parts[part]();
      loadAverage[part] = os.loadavg();
      console.error(`  ${users}: ${part} done, load average ${load()}`);
    },
    async close() {
      await core.close();
      await sandbox.close();
      await dropped();
    },
  };
}

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Bytes per record and load time of the bot-kit's memory with BOT_KIT_RECORDS records. */
function measureBotKit(): Measure[] {
  global.gc?.();
  const before = process.memoryUsage();
  const started = process.hrtime.bigint();
  const memory = new PremiumMemory();
  const now = Date.now();
  for (let i = 0; i < BOT_KIT_RECORDS; i++) {
    memory.apply(
      { guildId: (200000000000000000n + BigInt(i)).toString() },
      { expiresAt: new Date(now + i), version: 2, slots: 1 },
    );
  }
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  global.gc?.();
  const after = process.memoryUsage();
  const bytes = after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers;
  // Held until measured: collected earlier, it would weigh nothing.
  if (!memory.isPremium({ guildId: '200000000000000000' }, now - 1)) throw new Error('a record was lost');
  return [
    {
      name: `bot-kit, ${BOT_KIT_RECORDS} records loaded`,
      unit: 'ms',
      perItem: false,
      target: 2000,
      value: loadMs,
    },
    {
      name: 'bot-kit, memory per record',
      unit: 'B',
      perItem: false,
      target: 150,
      value: bytes / BOT_KIT_RECORDS,
    },
  ];
}

function row(cells: string[], widths: number[]): string {
  return cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
}

async function main(): Promise<void> {
  const loadBefore = load();
  console.error(`load average before: ${loadBefore}`);
  const small = await openSize(SMALL);
  let large: Size | undefined;
  try {
    large = await openSize(LARGE);
    // Part by part, the small size then the large one: a load that changes while the bench runs (other
    // people's builds and tests) then weighs on both sides of a ratio alike.
    // The slow reconcile first: the core part's own reconcile moves the due orders it checks on.
    for (const part of (['reconcile', 'core', 'http'] as const).filter(runs)) {
      await small.run(part);
      await large.run(part);
    }
  } finally {
    await large?.close();
    await small.close();
  }
  const botKit = runs('core') ? measureBotKit() : [];
  const header = ['MEASURE', 'UNIT', `${SMALL} users`, `${LARGE} users`, 'RATIO', 'TARGET', 'MET'];
  const lines = small.measures.map((measure, i) => {
    const big = large.measures[i]!;
    const ratio = big.value / measure.value;
    const met = (big.target === undefined || big.value <= big.target) && (!big.perItem || ratio <= 1.2);
    const judged = big.target !== undefined || big.perItem;
    return [
      big.name.replace(/, \d+ due/, ', all due'),
      measure.unit,
      measure.value.toFixed(2),
      big.value.toFixed(2),
      ratio.toFixed(2),
      `${big.target === undefined ? '' : `≤ ${big.target}`}${big.perItem ? ', ratio ≤ 1.2' : ''}`,
      judged ? (met ? 'yes' : big.why === undefined ? 'NO' : 'NO, why:') : '',
    ];
  });
  const whys = large.measures.flatMap((measure) =>
    measure.why === undefined ? [] : [`why: ${measure.name}: ${measure.why}`],
  );
  for (const measure of botKit) {
    const met = measure.value <= measure.target!;
    lines.push([
      measure.name,
      measure.unit,
      '',
      measure.value.toFixed(1),
      '',
      `≤ ${measure.target}`,
      met ? 'yes' : 'NO',
    ]);
  }
  const widths = header.map((_, i) => Math.max(...[header, ...lines].map((cells) => cells[i]!.length)));
  const table = [row(header, widths), ...lines.map((cells) => row(cells, widths))].join('\n');
  const footer =
    `seeding: ${small.seedSeconds.toFixed(0)} s at ${SMALL}, ${large.seedSeconds.toFixed(0)} s at ${LARGE}; ` +
    `migrations 015+ on the seeded data: ${small.migrateSeconds.toFixed(0)} s and ${large.migrateSeconds.toFixed(0)} s; ` +
    `load average before: ${loadBefore}, after: ${load()} (${os.cpus().length} cores)`;
  console.log([table, ...whys, footer].join('\n'));
  // A partial run (SCALE_ONLY) is printed only: results.json keeps the whole table of one run.
  if (process.env.SCALE_ONLY !== undefined) return;
  const results = JSON.stringify({
    at: new Date(),
    sizes: [SMALL, LARGE],
    small,
    large,
    botKit,
    loadAverage: os.loadavg(),
  });
  // Formatted as `npm run lint` checks it.
  const options = await prettier.resolveConfig(RESULTS_FILE);
  fs.writeFileSync(RESULTS_FILE, await prettier.format(results, { ...options, parser: 'json' }));
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
