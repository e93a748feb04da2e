import { STATUS_CODES } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FaultBody, Faults, FaultRoute } from '../faults';
import { basicCredentials, sendHtml, mediaType, stringField, withQuery } from '../http';
import { authorizeErrorPage, authorizePage } from './authorize-page';
import type { AuthorizeRequest, DiscordOAuth } from './oauth';
import { SANDBOX_BOT_USER } from './guilds';
import { guildResources, userResource, type SandboxDiscordUser } from './users';

function discordError(status: number) {
  return { message: `${status}: ${STATUS_CODES[status] ?? 'Error'}`, code: 0 };
}

/** Discord's error bodies, for a faulted status (429: `retry_after` in seconds). */
export const discordFaultBody: FaultBody = (status, retryAfter) => ({
  contentType: 'application/json; charset=utf-8',
  body:
    status === 429
      ? { message: 'You are being rate limited.', retry_after: retryAfter, global: false }
      : discordError(status),
});

/**
 * Discord's OAuth2 pages under `/oauth2` and its API under `/api/v10`, mounted at `/discord`; `/users/@me`
 * answers the bot (SANDBOX_BOT_USER) to `Authorization: Bot <botToken>`.
 */
export function discordRoutes(oauth: DiscordOAuth, faults: Faults, botToken: string): FastifyPluginAsync {
  const faulty = (route: FaultRoute) => ({ onRequest: faults.hook(route, discordFaultBody) });

  return async (app) => {
    app.setNotFoundHandler((_request, reply) => reply.code(404).send(discordError(404)));
    app.setErrorHandler((error: { statusCode?: number }, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
      return reply.code(status).send(discordError(status));
    });

    app.get('/oauth2/authorize', faulty('discord.authorize'), async (request, reply) => {
      const authorize = oauth.parseAuthorize(request.query);
      if ('error' in authorize) return sendHtml(reply, 400, authorizeErrorPage(authorize.error));
      if (oauth.autoApprove) return reply.redirect(approve(authorize));
      return sendHtml(reply, 200, authorizePage(oauth.currentUser(), authorize.scope, request.url));
    });

    app.post('/oauth2/authorize', faulty('discord.authorize'), async (request, reply) => {
      const authorize = oauth.parseAuthorize(request.query);
      if ('error' in authorize) return sendHtml(reply, 400, authorizeErrorPage(authorize.error));
      switch (stringField(request.body, 'decision')) {
        case 'authorize':
          return reply.redirect(approve(authorize));
        case 'cancel':
          return reply.redirect(
            withQuery(authorize.redirectUri, {
              error: 'access_denied',
              error_description: 'The resource owner or authorization server denied the request',
              state: authorize.state,
            }),
          );
        default:
          return sendHtml(reply, 400, authorizeErrorPage('Choose Authorize or Cancel'));
      }
    });

    app.post('/api/v10/oauth2/token', faulty('discord.token'), async (request, reply) => {
      if (mediaType(request) !== 'application/x-www-form-urlencoded') {
        return reply.code(400).send({
          error: 'invalid_request',
          error_description: 'The body must be application/x-www-form-urlencoded',
        });
      }
      const body = request.body;
      const basic = basicCredentials(request);
      const clientId = basic?.user ?? stringField(body, 'client_id');
      const clientSecret = basic?.password ?? stringField(body, 'client_secret');
      if (!oauth.authenticatesClient(clientId, clientSecret))
        return reply.code(401).send({ error: 'invalid_client' });
      if (stringField(body, 'grant_type') !== 'authorization_code') {
        return reply.code(400).send({ error: 'unsupported_grant_type' });
      }
      const result = oauth.exchangeCode(stringField(body, 'code'), stringField(body, 'redirect_uri'));
      return reply.code('error' in result ? 400 : 200).send(result);
    });

    app.get('/api/v10/users/@me', faulty('discord.me'), async (request, reply) =>
      request.headers.authorization === `Bot ${botToken}`
        ? SANDBOX_BOT_USER
        : withBearerUser(request, reply, (user) => userResource(user)),
    );

    app.get('/api/v10/users/@me/guilds', faulty('discord.guilds'), async (request, reply) =>
      withBearerUser(request, reply, (user) => guildResources(user)),
    );
  };

  function approve(authorize: AuthorizeRequest): string {
    return withQuery(authorize.redirectUri, { code: oauth.issueCode(authorize), state: authorize.state });
  }

  function withBearerUser(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: (user: SandboxDiscordUser) => unknown,
  ) {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const user = token === undefined ? undefined : oauth.userFor(token);
    return user === undefined ? reply.code(401).send(discordError(401)) : reply.send(answer(user));
  }
}
