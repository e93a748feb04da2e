import fs from 'node:fs';
import path from 'node:path';
import { loadDotEnv } from './dot-env';

/** Where `npm run dev` keeps its private PostgreSQL, and the addresses it is running with. */
export function devDirectory(): string {
  return path.resolve(process.env.DEV_DIR || '.dev');
}

/** The file `npm run dev` writes while it runs: the database, Redis and sandbox its processes use. */
export function devEnvFile(): string {
  return path.join(devDirectory(), 'env');
}

/**
 * Reads `.env`, then, under `NODE_ENV=development` only, the addresses a running `npm run dev` wrote, so
 * that a command run beside it uses the same database, Redis and sandbox. Variables already set win.
 */
export function loadLocalEnv(): void {
  loadDotEnv();
  if (process.env.NODE_ENV === 'development' && fs.existsSync(devEnvFile())) {
    process.loadEnvFile(devEnvFile());
  }
}
