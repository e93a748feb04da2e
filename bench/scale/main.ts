import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Sequelize } from 'sequelize';
import { PremiumMemory } from '../../src/bot-kit/memory';
import { createCore } from '../../src/core';
import { createMigrator } from '../../src/core/db/migrator';
import { createDatabase, databaseUrl, dropDatabase } from '../../test/support/databases';
import { testConfig } from '../../test/support/context';
import { measureDatabase, type Measure } from './measures';
import { seedScale } from './seed';

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

async function measureSize(
  users: number,
): Promise<{ seedSeconds: number; migrateSeconds: number; measures: Measure[] }> {
  const name = `premium_scale_${Date.now().toString(36)}_${users}`;
  await createDatabase(name);
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
    const core = createCore(testConfig({ DATABASE_URL: url }));
    try {
      return { seedSeconds, migrateSeconds, measures: await measureDatabase(core, users) };
    } finally {
      await core.close();
    }
  } finally {
    await dropDatabase(name);
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
  console.error(`load average before: ${load()}`);
  const small = await measureSize(SMALL);
  const large = await measureSize(LARGE);
  const botKit = measureBotKit();
  const header = ['MEASURE', 'UNIT', `${SMALL} users`, `${LARGE} users`, 'RATIO', 'TARGET', 'MET'];
  const lines = small.measures.map((measure, i) => {
    const big = large.measures[i]!;
    const ratio = big.value / measure.value;
    const met = (big.target === undefined || big.value <= big.target) && (!big.perItem || ratio <= 1.2);
    return [
      big.name.replace(/, \d+ due/, ', all due'),
      measure.unit,
      measure.value.toFixed(2),
      big.value.toFixed(2),
      ratio.toFixed(2),
      `${big.target === undefined ? '' : `≤ ${big.target}`}${big.perItem ? ', ratio ≤ 1.2' : ''}`,
      met ? 'yes' : 'NO',
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
    `load average after: ${load()} (${os.cpus().length} cores)`;
  console.log(`${table}\n${footer}`);
  fs.writeFileSync(
    RESULTS_FILE,
    `${JSON.stringify({ at: new Date(), sizes: [SMALL, LARGE], small, large, botKit, loadAverage: os.loadavg() }, null, 2)}\n`,
  );
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
