/**
 * `npm run dev`: the whole product on one machine. Creates and migrates the database, then runs the
 * sandbox (Discord and Razorpay), the API and the worker with one prefixed log stream; Ctrl-C stops all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { Sequelize } from 'sequelize';
import { loadConfig, loadDotEnv } from '../src/core/config';
import { createDatabaseIfMissing } from '../src/core/db/create-database';
import { createMigrator } from '../src/core/db/migrator';

const SANDBOX_PORT = process.env.SANDBOX_PORT ?? '4010';

function sandboxEnvironment(port: number): NodeJS.ProcessEnv {
  const sandbox = `http://127.0.0.1:${SANDBOX_PORT}`;
  const env: NodeJS.ProcessEnv = { SANDBOX_PORT, SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${port}/api/payment/webhook` };
  if (!process.env.DISCORD_CLIENT_ID) {
    env.DISCORD_API_URL = `${sandbox}/discord/api/v10`;
    env.DISCORD_AUTHORIZE_URL = `${sandbox}/discord/oauth2/authorize`;
  }
  if (!process.env.RAZORPAY_KEY_ID) env.RAZORPAY_API_URL = `${sandbox}/razorpay`;
  return env;
}

function run(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!]) {
    readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${name.padEnd(7)}] ${line}`));
  }
  return child;
}

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (config.nodeEnv === 'production') throw new Error('npm run dev is for development; use npm start in production');

  if (await createDatabaseIfMissing(config.databaseUrl)) console.log('[dev    ] created the database');
  const sequelize = new Sequelize(config.databaseUrl, { dialect: 'postgres', logging: false });
  const applied = await createMigrator(sequelize).up();
  await sequelize.close();
  console.log(`[dev    ] migrations applied: ${applied.length}`);

  const env = sandboxEnvironment(config.port);
  const children = [
    run('sandbox', 'src/sandbox/main.ts', env),
    run('api', 'src/server/main.ts', env),
    run('worker', 'src/worker/main.ts', env),
  ];
  console.log(`[dev    ] open http://localhost:${config.port}/ (API docs at /docs); Ctrl-C stops everything`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const child of children) child.kill('SIGTERM');
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const child of children) {
    child.on('exit', (code) => {
      if (!stopping) console.log(`[dev    ] a process exited (code ${code}); stopping the others`);
      stop();
      if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(code ?? 0);
    });
  }
}

main().catch((error: unknown) => {
  console.error(`[dev    ] ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
