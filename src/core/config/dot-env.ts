import fs from 'node:fs';
import path from 'node:path';

/** Reads `.env` from the working directory when present; variables already set win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}
