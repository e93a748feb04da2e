import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../test/support/ports';
import { startChild, whileAlive, type Child } from '../children';
import type { BenchEnvironment } from '../environment';
import { pollUntil } from '../../test/support/wait';

const ROOT = path.resolve(__dirname, '../..');

interface PackageJson {
  scripts: { start: string };
}

export interface ServerSecrets {
  jwtSecret: string;
  keySecret: string;
}

export interface RunningServer {
  url: string;
  child: Child;
}

async function startServer(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  flags: string[] = [],
): Promise<RunningServer> {
  const port = await freePort();
  const child = startChild(name, script, { ...env, PORT: String(port) }, flags);
  const url = `http://127.0.0.1:${port}`;
  const answers = async () => {
    try {
      return (await fetch(`${url}/healthz`)).ok;
    } catch {
      return false;
    }
  };
  await whileAlive([child], pollUntil(`the ${name} server to answer`, answers));
  return { url, child };
}

/** The node flags production starts the API with: those of `npm start` (the systemd unit's, by test). */
function productionNodeFlags(): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as PackageJson).scripts
    .start;
  const flags = /^node ((?:--\S+ )*)dist\/src\/server\/main\.js$/.exec(start)?.[1];
  if (flags === undefined)
    throw new Error(`npm start is not "node [flags] dist/src/server/main.js": ${start}`);
  return flags.split(' ').filter(Boolean);
}

/**
 * The service's settings in the bench, those of production with limits too high to be reached. Its
 * rate-limit counters start with this run's key prefix, so they neither trip the tests' per-IP limits nor
 * share counters with another run, and go with the run's other keys.
 */
function serviceEnv(env: BenchEnvironment, secrets: ServerSecrets): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_KEY_PREFIX: env.keyPrefix,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: String(1_000_000_000),
    WEBHOOK_RATE_LIMIT_PER_MINUTE: String(1_000_000_000),
    METRICS_PORT: '0',
    JWT_SECRET: secrets.jwtSecret,
    RAZORPAY_KEY_SECRET: secrets.keySecret,
    RAZORPAY_KEY_ID: 'rzp_test_bench',
    RAZORPAY_WEBHOOK_SECRET: 'bench-webhook-secret',
    DISCORD_CLIENT_ID: 'bench-client',
    DISCORD_CLIENT_SECRET: 'bench-client-secret',
    PLAN_PRICES: 'Monthly=199,Yearly=1999',
  };
}

/** The service's API (`src/server/main.ts`) as production runs it, its node flags too. */
export function startApiServer(env: BenchEnvironment, secrets: ServerSecrets): Promise<RunningServer> {
  return startServer('api', 'src/server/main.ts', serviceEnv(env, secrets), productionNodeFlags());
}

/** Core's verifyPayment in a bare Fastify (core-verify-server.ts), with the API's settings and node flags. */
export function startCoreVerifyServer(env: BenchEnvironment, secrets: ServerSecrets): Promise<RunningServer> {
  return startServer(
    'core-verify',
    'bench/api/core-verify-server.ts',
    serviceEnv(env, secrets),
    productionNodeFlags(),
  );
}

export function startBareServer(env: BenchEnvironment, secrets: ServerSecrets): Promise<RunningServer> {
  return startServer('bare', 'bench/api/bare-server.ts', {
    DATABASE_URL: env.databaseUrl,
    JWT_SECRET: secrets.jwtSecret,
    RAZORPAY_KEY_SECRET: secrets.keySecret,
  });
}
