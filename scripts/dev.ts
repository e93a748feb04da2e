/**
 * `npm run dev`: the whole product on one machine. Uses the PostgreSQL and Redis at DATABASE_URL /
 * REDIS_URL, or, when those are not set and nothing answers at the defaults, private ones under `.dev/`;
 * creates and migrates the database, then runs the sandbox (Discord, Razorpay and a stand-in for the bot),
 * the API and the worker with one prefixed, readable log stream, writes `.dev/env` for the CLI beside it,
 * and says "ready" once the API's /readyz does. Ctrl-C stops all, the private servers last.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { Sequelize } from 'sequelize';
import { loadConfig, loadDotEnv, type Config } from '../src/core/config';
import { createDatabaseIfMissing } from '../src/core/db/create-database';
import { createMigrator } from '../src/core/db/migrator';
import { devDirectory, devEnvFile } from '../src/core/config/dev-env';
import { buildCliInBackground } from './dev/build-cli';
import { printer } from './dev/output';
import { startPrivatePostgres } from './dev/private-postgres';
import { startPrivateRedis } from './dev/private-redis';
import type { PrivateServer } from './dev/private-server';
import { busyPortsProblem } from './dev/ports';
import { freePort, postgresProblem, redisProblem } from './dev/probe';
import { formatPlanIds } from '../src/core/plan-ids';
import { DEMO_ROLE_GUILD, SANDBOX_BOT_TOKEN } from '../src/sandbox/discord/guilds';
import { DEMO_USER } from '../src/sandbox/discord/users';
import { SANDBOX_PLAN_IDS } from '../src/sandbox/razorpay/sandbox-plans';

const ROOT = path.resolve(__dirname, '..');
const SANDBOX_PORT = process.env.SANDBOX_PORT ?? '4010';
const SANDBOX_SMTP_PORT = process.env.SANDBOX_SMTP_PORT ?? '4025';
const METRICS_PORT = process.env.METRICS_PORT ?? '9465';

function say(message: string): void {
  console.log(`[dev    ] ${message}`);
}

/** A URL as it may be printed: without its password. */
function shown(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function refuseBusyPorts(config: Config): Promise<void> {
  const problem = await busyPortsProblem([
    { setting: 'PORT', port: config.port, host: config.host },
    { setting: 'SANDBOX_PORT', port: Number(SANDBOX_PORT), host: '0.0.0.0' },
    { setting: 'SANDBOX_SMTP_PORT', port: Number(SANDBOX_SMTP_PORT), host: '0.0.0.0' },
    { setting: 'WORKER_PORT', port: config.workerPort, host: '0.0.0.0' },
    { setting: 'METRICS_PORT', port: Number(METRICS_PORT), host: '0.0.0.0' },
  ]);
  if (problem) throw new Error(problem);
}

interface Service {
  setting: 'DATABASE_URL' | 'REDIS_URL';
  label: string;
  /** What is tried when the setting is unset (overridable so tests can point it at a port nothing uses). */
  defaultUrl: string;
  problem: (url: string) => Promise<string | null>;
  startPrivate: () => Promise<PrivateServer>;
}

/** The URL to use: the one given (which must answer), the default when it answers, else a private server. */
async function resolveService(service: Service, servers: PrivateServer[]): Promise<string> {
  const given = process.env[service.setting];
  if (given) {
    const why = await service.problem(given);
    if (why) throw new Error(`${service.setting} (${shown(given)}) does not answer: ${why}`);
    return given;
  }
  const why = await service.problem(service.defaultUrl);
  if (!why) return service.defaultUrl;
  say(`no ${service.label} at ${shown(service.defaultUrl)} (${why}): starting a private one under .dev/`);
  const server = await service.startPrivate();
  servers.push(server);
  await server.ready;
  return server.url;
}

/** The sandbox's channel webhook that receives the seller's notices under `npm run dev`. */
const DEV_WEBHOOK_ID = '1';

function sandboxEnvironment(config: Config): NodeJS.ProcessEnv {
  const sandbox = `http://127.0.0.1:${SANDBOX_PORT}`;
  const env: NodeJS.ProcessEnv = {};
  if (!process.env.DISCORD_CLIENT_ID) {
    env.DISCORD_API_URL = `${sandbox}/discord/api/v10`;
    env.DISCORD_AUTHORIZE_URL = `${sandbox}/discord/oauth2/authorize`;
    env.DISCORD_CDN_URL = `${sandbox}/discord/cdn`;
  }
  if (!process.env.RAZORPAY_KEY_ID) {
    env.RAZORPAY_API_URL = `${sandbox}/razorpay`;
    // The plans the console's Set price makes outlive a restart, as Razorpay's do (the catalog keeps their ids).
    env.SANDBOX_PLANS_FILE =
      process.env.SANDBOX_PLANS_FILE || path.join(devDirectory(), 'sandbox-plans.json');
  }
  // Named, so that the sandbox starts its bot stand-in on the stream the worker writes.
  env.EVENTS_STREAM = config.eventsStream;
  // The sandbox starts with these plans, so subscriptions work without `premium plans sync`.
  if (!process.env.RAZORPAY_KEY_ID && !process.env.RAZORPAY_PLAN_IDS) {
    env.RAZORPAY_PLAN_IDS = formatPlanIds(SANDBOX_PLAN_IDS);
  }
  // The sandbox's demo user is the operator of /console, so the seller's desk can be tried at once.
  if (!process.env.DISCORD_CLIENT_ID && !process.env.OPERATOR_PROVIDER_IDS) {
    env.OPERATOR_PROVIDER_IDS = DEMO_USER.id;
  }
  // The seller's notices go to the sandbox's channel webhook, where a developer reads them.
  if (!process.env.SELLER_DISCORD_WEBHOOK_URL) {
    env.SELLER_DISCORD_WEBHOOK_URL = `${sandbox}/discord/api/webhooks/${DEV_WEBHOOK_ID}/sandbox-webhook-token`;
  }
  // The buyers' messages are mailed too, to the sandbox's SMTP sink, shown beside the DMs.
  if (!process.env.SMTP_URL) env.SMTP_URL = `smtp://127.0.0.1:${SANDBOX_SMTP_PORT}`;
  // Roles follow premium in the sandbox's demo guild, unless the developer set roles up themselves.
  const rolesSet = ['DISCORD_BOT_TOKEN', 'ROLE_GUILD_ID', 'TIER_ROLES'].some((name) => process.env[name]);
  if (!process.env.DISCORD_CLIENT_ID && !rolesSet) {
    env.DISCORD_BOT_TOKEN = SANDBOX_BOT_TOKEN;
    env.ROLE_GUILD_ID = DEMO_ROLE_GUILD.id;
    env.TIER_ROLES = DEMO_ROLE_GUILD.tierRoles;
  }
  return env;
}

/**
 * Whether this run wrote `.dev/env`. A run that stops before (ports busy, a URL that does not answer)
 * must leave the file alone: it may be another run's, which the CLI beside that run still reads.
 */
let wroteDevEnv = false;

/** `.dev/env`: what a command beside `npm run dev` (the CLI) needs to use the same servers and sandbox. */
function writeDevEnv(env: NodeJS.ProcessEnv): void {
  wroteDevEnv = true;
  const lines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  fs.writeFileSync(
    devEnvFile(),
    `# Written by npm run dev while it runs; read under NODE_ENV=development (npm run cli).\n${lines.join('\n')}\n`,
  );
}

function run(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: Ctrl-C reaches this script alone, which then stops each child once.
    // (Children that also got the terminal's SIGINT would take the second signal as "exit now".)
    detached: true,
  });
  const print = printer(name);
  for (const stream of [child.stdout!, child.stderr!])
    readline.createInterface({ input: stream }).on('line', print);
  return child;
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

async function untilReady(url: string, stillWaiting: () => boolean): Promise<boolean> {
  while (stillWaiting()) {
    try {
      if ((await fetch(url)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  return false;
}

const children = new Map<string, ChildProcess>();
const servers: PrivateServer[] = [];
let stopping = false;

/** Stops the children, then the private servers they used, and exits with `code`. */
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    if (children.size > 0) say('stopping the sandbox, the API and the worker');
    await Promise.all(
      [...children.values()]
        .filter((child) => !hasExited(child))
        .map((child) => {
          const exited = once(child, 'exit');
          child.kill('SIGTERM');
          return exited;
        }),
    );
    if (servers.length > 0) say('stopping the private PostgreSQL and Redis');
    for (const server of servers.reverse()) await server.stop();
    if (wroteDevEnv) fs.rmSync(devEnvFile(), { force: true });
    say(code === 0 ? 'stopped' : 'stopped, with a failure above');
    process.exit(code);
  }
  return new Promise<never>(() => undefined);
}

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(0));
  // Detached children outlive this script unless told: stop them however it ends.
  process.on('exit', () => {
    for (const child of children.values()) if (!hasExited(child)) child.kill('SIGTERM');
    for (const server of servers) server.kill();
  });

  loadDotEnv();
  process.env.NODE_ENV ??= 'development';
  const config = loadConfig();
  if (config.nodeEnv === 'production')
    throw new Error('npm run dev is for development; use npm start in production');
  await refuseBusyPorts(config);

  const dir = devDirectory();
  fs.mkdirSync(dir, { recursive: true });
  const databaseUrl = await resolveService(
    {
      setting: 'DATABASE_URL',
      label: 'PostgreSQL',
      defaultUrl: process.env.DEV_DEFAULT_DATABASE_URL || config.databaseUrl,
      problem: postgresProblem,
      startPrivate: async () => startPrivatePostgres(dir, await freePort(), say),
    },
    servers,
  );
  const redisUrl = await resolveService(
    {
      setting: 'REDIS_URL',
      label: 'Redis',
      defaultUrl: process.env.DEV_DEFAULT_REDIS_URL || config.redisUrl,
      problem: redisProblem,
      startPrivate: async () => startPrivateRedis(await freePort()),
    },
    servers,
  );

  if (await createDatabaseIfMissing(databaseUrl)) say('created the database');
  const sequelize = new Sequelize(databaseUrl, { dialect: 'postgres', logging: false });
  const applied = await createMigrator(sequelize).up();
  await sequelize.close();
  say(`migrations applied: ${applied.length}`);

  const shared = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, ...sandboxEnvironment(config) };
  writeDevEnv(shared);
  const api = `http://localhost:${config.port}`;
  const env: NodeJS.ProcessEnv = {
    ...shared,
    NODE_ENV: config.nodeEnv,
    SANDBOX_PORT,
    SANDBOX_SMTP_PORT,
    SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${config.port}/api/payment/webhook`,
    // The API's demo page is the frontend in development, whatever PORT is.
    FRONTEND_URL: process.env.FRONTEND_URL || `${api}/store`,
    DISCORD_REDIRECT_URI: process.env.DISCORD_REDIRECT_URI || `${api}/api/auth/idp/callback`,
  };
  if (stopping) return;
  children.set('sandbox', run('sandbox', 'src/sandbox/main.ts', env));
  children.set('api', run('api', 'src/server/main.ts', env));
  children.set('worker', run('worker', 'src/worker/main.ts', env));
  for (const [name, child] of children) {
    child.on('exit', (code, signal) => {
      if (stopping) return;
      say(`${name} exited (${signal ?? `code ${code}`})`);
      void shutdown(1);
    });
  }

  if (await untilReady(`http://127.0.0.1:${config.port}/readyz`, () => !stopping)) {
    say(`ready: open ${api}/store/ to sign in and buy premium (API docs at /docs)`);
    if (env.OPERATOR_PROVIDER_IDS ?? process.env.OPERATOR_PROVIDER_IDS)
      say(`the seller's console: ${api}/console (operators: OPERATOR_PROVIDER_IDS)`);
    if (!process.env.SELLER_DISCORD_WEBHOOK_URL)
      say(
        `the seller's Discord notices: http://127.0.0.1:${SANDBOX_PORT}/discord/api/webhooks/${DEV_WEBHOOK_ID}/messages`,
      );
    if (!process.env.SMTP_URL)
      say(`the buyers' DMs and mails: http://127.0.0.1:${SANDBOX_PORT}/sandbox/messages`);
    say('the CLI beside it: npx premium <command> (same database, Redis and sandbox)');
    say('Ctrl-C stops everything');
    // `npx premium` in this checkout runs its dist/: built only when the stack runs from the checkout
    // (as `npm run dev` does), never from a launcher elsewhere, whose dist/ others may be running.
    if (path.resolve(process.cwd()) === ROOT) void buildCliInBackground(ROOT, say);
  }
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  void shutdown(1);
});
