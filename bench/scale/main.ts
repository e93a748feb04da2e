import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Sequelize } from 'sequelize';
import { PremiumMemory } from '../../src/bot-kit/memory';
import { createCore } from '../../src/core';
import { createMigrator } from '../../src/core/db/migrator';
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

async function measureSize(
  users: number,
): Promise<{ seedSeconds: number; migrateSeconds: number; loadAverage: number[]; measures: Measure[] }> {
  const name = `premium_scale_${RUN_ID}_${users}`;
  await createDatabase(name);
  const keyPrefix = `premium:scale:${RUN_ID}:`;
  try {
    const url = databaseUrl(name);
    const plain = new Sequelize(url, { dialect: 'postgres', logging: false });
    await createMigrator(plain).up({ to: DEPLOYED });
    let started = Date.now();
    await seedScale(plain, users, (step) => console.error(`  seeding ${users}: ${step}`));
    const seedSeconds = (Date.now() - started) / 1000;
    started = Date.now();
    await createMigrator(plain).up();
    await plain.query('ANALYZE');
    const migrateSeconds = (Date.now() - started) / 1000;
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
    const measures: Measure[] = [];
    const add = (measure: Measure) => {
      measures.push(measure);
      console.error(`  ${measure.name}: ${measure.value.toFixed(3)} ${measure.unit}`);
    };
    try {
      const processor = razorpayClientFor(core.config);
      // First: the core part's own reconcile moves the due orders it checks out of the backlog.
      if (runs('reconcile')) await measureSlowReconcile(core, processor, sandbox, add);
      if (runs('core')) await measureDatabase(core, users, add);
      if (runs('http')) await measureOverHttp(core, processor, sandbox, users, add);
      return { seedSeconds, migrateSeconds, loadAverage: os.loadavg(), measures };
    } finally {
      await core.close();
      await sandbox.close();
    }
  } finally {
    await dropDatabase(name);
    const redis = new Redis(testConfig().redisUrl);
    await deleteKeys(redis, `${keyPrefix}*`);
    redis.disconnect();
  }
}

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
  const load = () =>
    os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ');
  const loadBefore = load();
  console.error(`load average before: ${loadBefore}`);
  const small = await measureSize(SMALL);
  console.error(`load average after ${SMALL} users: ${load()}`);
  const large = await measureSize(LARGE);
  console.error(`load average after ${LARGE} users: ${load()}`);
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
      judged ? (met ? 'yes' : 'NO') : '',
    ];
  });
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
  console.log(`${table}\n${footer}`);
  // A partial run (SCALE_ONLY) is printed only: results.json keeps the whole table of one run.
  if (process.env.SCALE_ONLY !== undefined) return;
  fs.writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ at: new Date(), sizes: [SMALL, LARGE], small, large, botKit, loadAverage: os.loadavg() }, null, 2)}\n`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
