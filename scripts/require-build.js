#!/usr/bin/env node
// `npm start` and `npm run worker` run the compiled code: on a fresh clone it is not there yet, and
// Node's own "Cannot find module" stack trace does not say what to do.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const compiled = path.resolve(__dirname, '..', process.argv[2]);
if (!fs.existsSync(compiled)) {
  console.error(`${path.relative(process.cwd(), compiled)} is missing: run npm run build first`);
  process.exit(1);
}
