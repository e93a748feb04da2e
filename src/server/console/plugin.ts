import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../core/errors';
import type { AppOptions } from '../app-options';
import { perIpRateLimit } from '../plugins/rate-limit';
import consoleActionRoutes from '../routes/console-actions';
import consoleCatalogRoutes from '../routes/console-catalog';
import consoleLookupRoutes from '../routes/console-lookups';
import consoleOfferRoutes from '../routes/console-offers';
import consoleReportRoutes from '../routes/console-reports';
import { sourceDirectory } from '../source-directory';
import { CONSOLE_PATH } from './cookie';
import { guardConsole } from './guard';

const OWN_PUBLIC = sourceDirectory('src/server/console/public');
/** The chart library, served from node_modules: nothing of the console comes from a CDN. */
const VENDOR: Record<string, { file: string; type: string }> = {
  'uPlot.iife.min.js': { file: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  'uPlot.min.css': { file: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' },
};
const ASSET = /^[a-z0-9-]+\.(js|css)$/;
/**
 * The scripts and styles one load of the page asks for: the assets' route counts each, so its limit per
 * IP is RATE_LIMIT_PER_MINUTE page loads' worth (with the limit of one request, a twelfth load in a
 * minute lost its scripts).
 */
const ASSETS_PER_PAGE = (
  fs.readFileSync(path.join(OWN_PUBLIC, 'index.html'), 'utf8').match(/"\/console\/assets\//g) ?? []
).length;
const ASSET_TYPES = { js: 'text/javascript', css: 'text/css' } as const;

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
  const assets = {
    ...hidden,
    config: perIpRateLimit(options.core.config.rateLimitPerMinute * ASSETS_PER_PAGE),
  };
  app.get<{ Params: { name: string } }>(`${CONSOLE_PATH}/assets/:name`, assets, async (request, reply) => {
    const { name } = request.params;
    const vendor = VENDOR[name];
    if (vendor) return send(reply, vendor.file, vendor.type);
    const type = ASSET.exec(name)?.[1] as keyof typeof ASSET_TYPES | undefined;
    const file = path.join(OWN_PUBLIC, name);
    if (!type || !fs.existsSync(file)) throw AppError.notFound('NOT_FOUND', `no file ${request.url}`);
    return send(reply, file, ASSET_TYPES[type]);
  });

  await app.register(async (api) => {
    await guardConsole(api, options.core);
    await api.register(consoleLookupRoutes, options);
    await api.register(consoleActionRoutes, options);
    await api.register(consoleCatalogRoutes, options);
    await api.register(consoleOfferRoutes, options);
    await api.register(consoleReportRoutes, options);
  });
}
