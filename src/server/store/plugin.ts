import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../core/config';
import type { Core } from '../../core';
import { AppError } from '../../core/errors';
import { GST_STATES } from '../../core/gst';
import { CUSTOM_MONTH_PLAN, CUSTOM_MONTHS } from '../../core/plans';
import { sourceDirectory } from '../source-directory';

/**
 * What the page needs besides the API: the sandbox's checkout page and bot stand-in, and the Custom rule
 * (N months, in range, of the catalog's `customMonthPlan`). The plans and their prices are the catalog's:
 * the page reads them from GET /api/plans, as any frontend would.
 */
export function storeConfig(config: Config) {
  // In development RAZORPAY_API_URL is the sandbox's `/razorpay`; the sandbox also serves the bot stand-in.
  const sandboxUrl = /^(.*)\/razorpay$/.exec(config.razorpay.apiUrl)?.[1];
  return {
    checkoutUrl: sandboxUrl === undefined ? null : `${config.razorpay.apiUrl}/checkout`,
    botEventsUrl: sandboxUrl === undefined ? null : `${sandboxUrl}/bot/events`,
    customMonths: CUSTOM_MONTHS,
    customMonthPlan: CUSTOM_MONTH_PLAN,
    /** The billing state's choices: GST's states and union territories, by code. */
    gstStates: Object.entries(GST_STATES).map(([code, name]) => ({ code, name })),
  };
}

const PAGE_PATHS = ['/', '/login', '/dashboard'];
/** The page's scripts (store.js and one per added section) and styles: any such file of the directory. */
const ASSET = /^[a-z0-9-]+\.(js|css)$/;
const ASSET_TYPES = { js: 'text/javascript', css: 'text/css' } as const;
const hidden = { schema: { hide: true } };

/**
 * The development demo: one page (at `/`, and at `/login` and `/dashboard` where sign-in sends the
 * browser) that signs in, shows the dashboard and buys premium through the public API alone.
 * Registered only outside production.
 */
export default async function storePage(app: FastifyInstance, { core }: { core: Core }): Promise<void> {
  const directory = sourceDirectory('src/server/store/public');
  // Read at each request, so that an edited page shows on reload.
  const sendFile = async (reply: FastifyReply, name: string, type: string) =>
    reply
      .header('cache-control', 'no-store')
      .type(`${type}; charset=utf-8`)
      .send(await fs.promises.readFile(path.join(directory, name)));

  for (const pagePath of PAGE_PATHS) {
    app.get(pagePath, hidden, (_request, reply) => sendFile(reply, 'index.html', 'text/html'));
  }
  app.get<{ Params: { name: string } }>('/demo/:name', hidden, async (request, reply) => {
    const { name } = request.params;
    const type = ASSET.exec(name)?.[1] as keyof typeof ASSET_TYPES | undefined;
    if (!type || !fs.existsSync(path.join(directory, name)))
      throw AppError.notFound('NOT_FOUND', `no file /demo/${name}`);
    return sendFile(reply, name, ASSET_TYPES[type]);
  });
  const settings = storeConfig(core.config);
  app.get('/demo/config.json', hidden, async () => settings);
}
