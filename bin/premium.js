#!/usr/bin/env node
try {
  require.resolve('../dist/src/cli/main.js');
} catch {
  console.error('premium: the CLI is not built yet: run npm run build first (or npm run cli -- <command>)');
  process.exit(1);
}
require('../dist/src/cli/main.js');
