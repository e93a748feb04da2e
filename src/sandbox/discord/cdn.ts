import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';

const COLOURS = ['#5865f2', '#757e8a', '#3ba55c', '#faa61a', '#ed4245', '#eb459e'];

/** A round avatar in a colour picked from the path, so that different users look different. */
function avatar(path: string): string {
  const colour = COLOURS[createHash('sha256').update(path).digest()[0]! % COLOURS.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
<circle cx="64" cy="64" r="64" fill="${colour}"/>
<circle cx="64" cy="50" r="22" fill="#fff"/><path d="M24 108c6-22 22-32 40-32s34 10 40 32z" fill="#fff"/></svg>`;
}

/**
 * Discord's CDN, as far as the service points at it: every avatar (`/avatars/…`, `/embed/avatars/…`)
 * and guild icon (`/icons/…`) is an image served from here, so that the demo page, signed in through the
 * sandbox, fetches nothing from outside the machine. Mounted at `/discord/cdn` (DISCORD_CDN_URL).
 */
export const discordCdnRoutes: FastifyPluginAsync = async (app) => {
  app.get('/*', async (request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(avatar(request.url)),
  );
};
