#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');

// Beside a running `npm run dev` (its `.dev/env` exists only while it runs), an unset NODE_ENV means
// development: the CLI then reads that file and talks to the dev stack instead of asking for production's
// secrets. An explicit NODE_ENV always wins, and a production image has no `.dev`.
const devEnv = path.join(path.resolve(process.env.DEV_DIR || '.dev'), 'env');
if (!process.env.NODE_ENV && fs.existsSync(devEnv)) process.env.NODE_ENV = 'development';

const compiled = path.join(__dirname, '../dist/src/cli/main.js');
const source = path.join(__dirname, '../src/cli/main.ts');

/** The latest change to the CLI's sources, in ms: a build older than it no longer is what the source says. */
function latestSourceChange() {
  let latest = 0;
  for (const dir of ['src', 'migrations']) {
    const root = path.join(__dirname, '..', dir);
    if (!fs.existsSync(root)) continue;
    for (const name of fs.readdirSync(root, { recursive: true })) {
      latest = Math.max(latest, fs.statSync(path.join(root, name)).mtimeMs);
    }
  }
  return latest;
}

/** tsx's CommonJS hook (a dev dependency), when this checkout has it. */
function tsxHook() {
  try {
    return require.resolve('tsx/cjs');
  } catch {
    return undefined;
  }
}

const fromSource = process.env.NODE_ENV === 'development' && fs.existsSync(source) && tsxHook();

// Under development a build older than a source file is passed over: `npm run dev` rebuilds at each
// start (scripts/dev/build-cli.ts), and between two starts an edit is run from its source.
if (fs.existsSync(compiled) && !(fromSource && fs.statSync(compiled).mtimeMs < latestSourceChange())) {
  require(compiled);
} else if (fromSource) {
  // Under development only: the TypeScript source. Production never runs from source.
  require(tsxHook());
  require(source);
} else {
  console.error('premium: the CLI is not built yet: run npm run build first (or npm run cli -- <command>)');
  process.exit(1);
}
