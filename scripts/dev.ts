/**
 * `npm run dev`: the whole product on one machine. Creates and migrates the database, then runs the
 * sandbox (Discord, Razorpay and a stand-in for the bot), the API and the worker with one prefixed,
 * readable log stream, and prints where to open the demo page; Ctrl-C stops all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { prettyFactory } from 'pino-pretty';
import { Sequelize } from 'sequelize';
import { loadConfig, loadDotEnv, type Config } from '../src/core/config';
import { createDatabaseIfMissing } from '../src/core/db/create-database';
import { createMigrator } from '../src/core/db/migrator';
import { formatPlanIds } from '../src/core/subscriptions/plan-ids';
import { SANDBOX_PLAN_IDS } from '../src/sandbox/razorpay/sandbox-plans';

const SANDBOX_PORT = process.env.SANDBOX_PORT ?? '4010';

function say(message: string): void {
  console.log(`[dev    ] ${message}`);
}

function childEnvironment(config: Config): NodeJS.ProcessEnv {
  const sandbox = `http://127.0.0.1:${SANDBOX_PORT}`;
  const api = `http://localhost:${config.port}`;
  const env: NodeJS.ProcessEnv = {
    SANDBOX_PORT,
    SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${config.port}/api/payment/webhook`,
    // Named, so that the sandbox starts its bot stand-in on the stream the worker writes.
    REDIS_URL: config.redisUrl,
    EVENTS_STREAM: config.eventsStream,
    // The API's demo page is the frontend in development, whatever PORT is.
    FRONTEND_URL: process.env.FRONTEND_URL || api,
    DISCORD_REDIRECT_URI: process.env.DISCORD_REDIRECT_URI || `${api}/api/auth/idp/callback`,
  };
  if (!process.env.DISCORD_CLIENT_ID) {
    env.DISCORD_API_URL = `${sandbox}/discord/api/v10`;
    env.DISCORD_AUTHORIZE_URL = `${sandbox}/discord/oauth2/authorize`;
  }
  if (!process.env.RAZORPAY_KEY_ID) env.RAZORPAY_API_URL = `${sandbox}/razorpay`;
  // The sandbox starts with these plans, so subscriptions work without `premium plans sync`.
  if (!process.env.RAZORPAY_KEY_ID && !process.env.RAZORPAY_PLAN_IDS) {
    env.RAZORPAY_PLAN_IDS = formatPlanIds(SANDBOX_PLAN_IDS);
  }
  return env;
}

interface PinoLine {
  msg?: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

/** Fastify logs every request twice (arrival, completion): keep one line, at completion, saying both. */
function oneLinePerRequest(line: string, arrived: Map<string, string>): string | null {
  let entry: PinoLine;
  try {
    entry = JSON.parse(line) as PinoLine;
  } catch {
    return line;
  }
  const { msg, reqId = '', req, res, responseTime = 0, ...rest } = entry;
  if (msg === 'incoming request' && req) {
    arrived.set(reqId, `${req.method} ${req.url}`);
    return null;
  }
  if (msg === 'request completed' && res) {
    const request = arrived.get(reqId) ?? reqId;
    arrived.delete(reqId);
    return JSON.stringify({
      ...rest,
      msg: `${request} → ${res.statusCode} (${Math.round(responseTime)} ms)`,
    });
  }
  return line;
}

const pretty = prettyFactory({
  translateTime: 'SYS:HH:MM:ss',
  ignore: 'pid,hostname,name',
  singleLine: true,
});

/** Prints a child's output under its name, pino's JSON lines made readable. */
function printer(name: string): (line: string) => void {
  const prefix = `[${name.padEnd(7)}]`;
  const arrived = new Map<string, string>();
  return (line) => {
    const text = oneLinePerRequest(line, arrived);
    if (text === null) return;
    for (const part of pretty(text).trimEnd().split('\n')) console.log(`${prefix} ${part}`);
  };
}

function run(name: string, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
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

async function untilAnswering(url: string, stillWaiting: () => boolean): Promise<boolean> {
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

async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (config.nodeEnv === 'production')
    throw new Error('npm run dev is for development; use npm start in production');

  if (await createDatabaseIfMissing(config.databaseUrl)) say('created the database');
  const sequelize = new Sequelize(config.databaseUrl, { dialect: 'postgres', logging: false });
  const applied = await createMigrator(sequelize).up();
  await sequelize.close();
  say(`migrations applied: ${applied.length}`);

  const env = childEnvironment(config);
  const children = new Map([
    ['sandbox', run('sandbox', 'src/sandbox/main.ts', env)],
    ['api', run('api', 'src/server/main.ts', env)],
    ['worker', run('worker', 'src/worker/main.ts', env)],
  ]);

  let stopping = false;
  let failed = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    say('stopping the sandbox, the API and the worker');
    for (const child of children.values()) if (!hasExited(child)) child.kill('SIGTERM');
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  // Detached children outlive this script unless told: stop them however it ends.
  process.on('exit', () => {
    for (const child of children.values()) if (!hasExited(child)) child.kill('SIGTERM');
  });
  for (const [name, child] of children) {
    child.on('exit', (code, signal) => {
      if (!stopping || code !== 0) {
        say(`${name} exited (${signal ?? `code ${code}`})`);
        failed = true;
      }
      stop();
      if ([...children.values()].every(hasExited)) {
        say(failed ? 'stopped, with a failure above' : 'stopped');
        process.exit(failed ? 1 : 0);
      }
    });
  }

  if (await untilAnswering(`http://127.0.0.1:${config.port}/healthz`, () => !stopping)) {
    say(`ready: open http://localhost:${config.port}/ to sign in and buy premium (API docs at /docs)`);
    say('Ctrl-C stops everything');
  }
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
