import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core';
import { readSettings } from '../../core/settings';
import { pageFileCount, servePageFiles } from '../page-files';
import { sourceDirectory } from '../source-directory';
import { storeContentSecurityPolicy } from './content-security-policy';
import { storeSettings } from './settings';

export const STORE_PATH = '/store';
/** The page: the store, its sign-in failures (`FRONTEND_URL/login`) and the dashboard sign-in lands on. */
const PAGE_PATHS = ['/', '/login', '/dashboard'];
const hidden = { schema: { hide: true } };

/** What the address asked for after its path (`?token=…`), kept across a redirect. */
const queryOf = (request: FastifyRequest) => {
  const at = request.url.indexOf('?');
  return at === -1 ? '' : request.url.slice(at);
};

/**
 * The store (docs/store.md): one page at `/store/` (and `/store/login`, `/store/dashboard`, where sign-in
 * sends the browser) that shows the catalog, signs in, buys premium and manages it through the public API
 * alone. The demo page's old paths (`/`, `/login`, `/dashboard`) redirect to it with their query.
 * Registered outside production, and under production with STORE_PUBLIC=true.
 */
export default async function storePage(app: FastifyInstance, { core }: { core: Core }): Promise<void> {
  const directory = sourceDirectory('src/server/store/public');
  const csp = storeContentSecurityPolicy(core.config);
  // Read at each request, so that an edited page shows on reload.
  const sendFile = async (reply: FastifyReply, file: string, type: string) =>
    reply
      .header('cache-control', 'no-store')
      .type(`${type}; charset=utf-8`)
      .send(await fs.promises.readFile(file));

  for (const pagePath of PAGE_PATHS) {
    app.get(`${STORE_PATH}${pagePath}`, hidden, (request, reply) => {
      csp(request.raw, reply.raw, () => undefined);
      return sendFile(reply, path.join(directory, 'index.html'), 'text/html');
    });
    app.get(pagePath, hidden, (request, reply) =>
      reply.redirect(`${STORE_PATH}${pagePath}${queryOf(request)}`, 302),
    );
  }
  app.get(STORE_PATH, hidden, (request, reply) => reply.redirect(`${STORE_PATH}/${queryOf(request)}`, 302));
  // One load of the page asks for each of its scripts and styles (store.js and one per added section).
  servePageFiles(app, {
    route: `${STORE_PATH}/:name`,
    directory,
    filesPerLoad: pageFileCount(directory),
    rateLimitPerMinute: core.config.rateLimitPerMinute,
    send: sendFile,
  });
  app.get(`${STORE_PATH}/config.json`, hidden, async () =>
    storeSettings(core.config, await readSettings(core)),
  );
}
