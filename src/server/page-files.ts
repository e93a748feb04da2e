import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../core/errors';
import { perIpRateLimit } from './plugins/rate-limit';

/** A page's scripts and styles: any `name.js` or `name.css` of its folder. */
const PAGE_FILE = /^[a-z0-9-]+\.(js|css)$/;
const PAGE_FILE_TYPES = { js: 'text/javascript', css: 'text/css' } as const;

export type SendPageFile = (reply: FastifyReply, file: string, type: string) => Promise<FastifyReply>;

export interface PageFiles {
  /** The route, ending in `:name`. */
  route: string;
  directory: string;
  /**
   * The files one load of the page asks for. Each is a request to this one route, so its per-IP limit is
   * RATE_LIMIT_PER_MINUTE page loads' worth: a limit of that many files cut a page off after a few loads.
   */
  filesPerLoad: number;
  rateLimitPerMinute: number;
  /** Files served by name from elsewhere (a library's build in node_modules). */
  vendor?: Record<string, { file: string; type: string }>;
  send: SendPageFile;
}

/** The route that serves a page's own scripts and styles by name, and nothing else of its folder. */
export function servePageFiles(app: FastifyInstance, files: PageFiles): void {
  const config = perIpRateLimit(files.rateLimitPerMinute * files.filesPerLoad);
  app.get<{ Params: { name: string } }>(
    files.route,
    { schema: { hide: true }, config },
    async (request, reply) => {
      const { name } = request.params;
      const vendor = files.vendor?.[name];
      if (vendor) return files.send(reply, vendor.file, vendor.type);
      const type = PAGE_FILE.exec(name)?.[1] as keyof typeof PAGE_FILE_TYPES | undefined;
      const file = path.join(files.directory, name);
      if (!type || !fs.existsSync(file)) throw AppError.notFound('NOT_FOUND', `no file ${request.url}`);
      return files.send(reply, file, PAGE_FILE_TYPES[type]);
    },
  );
}

/** How many of the page's own files its folder holds. */
export const pageFileCount = (directory: string) =>
  fs.readdirSync(directory).filter((name) => PAGE_FILE.test(name)).length;
