import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../core/config';
import type { Core } from '../../core';
import { CUSTOM_MONTHS } from '../../core/plans';

/** The page's files are not TypeScript, so the build leaves them in the source tree: find it from src/ or dist/. */
function publicDirectory(): string {
  let directory = __dirname;
  while (!fs.existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${__dirname}`);
    directory = parent;
  }
  return path.join(directory, 'src/server/demo/public');
}

/** What the page needs besides the API: the sandbox's checkout page and bot stand-in, and the prices. */
export function demoConfig(config: Config) {
  // In development RAZORPAY_API_URL is the sandbox's `/razorpay`; the sandbox also serves the bot stand-in.
  const sandboxUrl = /^(.*)\/razorpay$/.exec(config.razorpay.apiUrl)?.[1];
  return {
    checkoutUrl: sandboxUrl === undefined ? null : `${config.razorpay.apiUrl}/checkout`,
    botEventsUrl: sandboxUrl === undefined ? null : `${sandboxUrl}/bot/events`,
    prices: config.planPrices,
    customMonths: CUSTOM_MONTHS,
  };
}

const PAGE_PATHS = ['/', '/login', '/dashboard'];
const ASSETS = {
  'demo.js': 'text/javascript',
  'demo.css': 'text/css',
  'subscriptions.js': 'text/javascript',
} as const;
const hidden = { schema: { hide: true } };

/**
 * The development demo: one page (at `/`, and at `/login` and `/dashboard` where sign-in sends the
 * browser) that signs in, shows the dashboard and buys premium through the public API alone.
 * Registered only outside production.
 */
export default async function demoPage(app: FastifyInstance, { core }: { core: Core }): Promise<void> {
  const directory = publicDirectory();
  // Read at each request, so that an edited page shows on reload.
  const sendFile = async (reply: FastifyReply, name: string, type: string) =>
    reply
      .header('cache-control', 'no-store')
      .type(`${type}; charset=utf-8`)
      .send(await fs.promises.readFile(path.join(directory, name)));

  for (const pagePath of PAGE_PATHS) {
    app.get(pagePath, hidden, (_request, reply) => sendFile(reply, 'index.html', 'text/html'));
  }
  for (const [name, type] of Object.entries(ASSETS)) {
    app.get(`/demo/${name}`, hidden, (_request, reply) => sendFile(reply, name, type));
  }
  const settings = demoConfig(core.config);
  app.get('/demo/config.json', hidden, async () => settings);
}
