import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppOptions } from '../app-options';
import consoleActionRoutes from '../routes/console-actions';
import consoleCatalogRoutes from '../routes/console-catalog';
import consoleJobRoutes from '../routes/console-jobs';
import consoleLookupRoutes from '../routes/console-lookups';
import consoleOfferRoutes from '../routes/console-offers';
import consoleReportRoutes from '../routes/console-reports';
import consoleSettingsRoutes from '../routes/console-settings';
import consoleWebhookRoutes from '../routes/console-webhooks';
import { servePageFiles } from '../page-files';
import { sourceDirectory } from '../source-directory';
import { CONSOLE_PATH } from './cookie';
import { guardConsole } from './guard';

const OWN_PUBLIC = sourceDirectory('src/server/console/public');
/** The chart library, served from node_modules: nothing of the console comes from a CDN. */
const VENDOR: Record<string, { file: string; type: string }> = {
  'uPlot.iife.min.js': { file: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uPlot.min.css': { file: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};
/** The scripts and styles one load of the page asks for. */
const ASSETS_PER_PAGE = (
  fs.readFileSync(path.join(OWN_PUBLIC, 'index.html'), 'utf8').match(/"\/console\/assets\//g) ?? []
).length;

/**
 * The page loads only its own scripts and styles, talks only to this API, and is never framed. uPlot sets
 * element styles from script, which `style-src 'self'` allows (CSSOM, not inline style attributes).
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const hidden = { schema: { hide: true } };

async function send(reply: FastifyReply, file: string, type: string) {
  return reply
    .header('cache-control', 'no-store')
    .header('content-security-policy', PAGE_CSP)
    .type(`${type}; charset=utf-8`)
    .send(await fs.promises.readFile(file));
}

/**
 * The seller's console: its page at `/console` (open to anyone: it shows a sign-in link until the
 * browser holds an operator's cookie) and its JSON routes under `/api/console/...`, all behind the guard.
 * Registered only when OPERATOR_PROVIDER_IDS names someone.
 */
export default async function consolePlugin(app: FastifyInstance, options: AppOptions): Promise<void> {
  app.get(CONSOLE_PATH, hidden, (_request, reply) =>
    send(reply, path.join(OWN_PUBLIC, 'index.html'), 'text/html'),
  );
  servePageFiles(app, {
    route: `${CONSOLE_PATH}/assets/:name`,
    directory: OWN_PUBLIC,
    filesPerLoad: ASSETS_PER_PAGE,
    rateLimitPerMinute: options.core.config.rateLimitPerMinute,
    vendor: VENDOR,
    send,
  });

  await app.register(async (api) => {
    await guardConsole(api, options.core);
    await api.register(consoleLookupRoutes, options);
    await api.register(consoleActionRoutes, options);
    await api.register(consoleCatalogRoutes, options);
    await api.register(consoleOfferRoutes, options);
    await api.register(consoleReportRoutes, options);
    await api.register(consoleJobRoutes, options);
    await api.register(consoleSettingsRoutes, options);
    await api.register(consoleWebhookRoutes, options);
  });
}
