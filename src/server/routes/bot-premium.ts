import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Core } from '../../core';
import { botTokenChecker, botTokenFingerprint, invalidBotToken } from '../../core/bot/bot-token';
import { findGuildPremium, findUserPremium } from '../../core/bot/premium-records';
import { SNAPSHOT_FORMATS, SNAPSHOT_PAGE, snapshotLines, snapshotPage } from '../../core/bot/snapshot';
import { CATEGORIES } from '../../core/premium/types';
import { PROVIDER_ID_PATTERN } from '../../core/users';
import { perClientRateLimit } from '../plugins/rate-limit';
import { errorReplies, ProviderId, RunningTier, TierFeatures } from '../schemas';

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Version = Type.Integer({ minimum: 0, description: "the record's version; 0 when it never existed" });

const GuildPremiumReply = Type.Object({
  guildId: Type.String(),
  isPremium: Type.Boolean(),
  premiumExpiresAt: Timestamp,
  tier: RunningTier,
  features: TierFeatures,
  slots: Type.Integer({ minimum: 0 }),
  version: Version,
});

const UserPremiumReply = Type.Object({
  providerId: Type.String(),
  isPremium: Type.Boolean(),
  premiumExpiresAt: Timestamp,
  tier: RunningTier,
  features: TierFeatures,
  version: Version,
});

const SnapshotQuery = Type.Object({
  category: Type.Union(CATEGORIES.map((category) => Type.Literal(category))),
  cursor: Type.Optional(Type.String({ maxLength: 64, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(
    Type.String({
      pattern: '^(1000|[1-9][0-9]{0,2})$',
      description: `records per page, 1..${SNAPSHOT_PAGE.max} (default ${SNAPSHOT_PAGE.default})`,
    }),
  ),
});

const StreamQuery = Type.Object({
  format: Type.Optional(
    Type.Union(
      SNAPSHOT_FORMATS.map((format) => Type.Literal(format)),
      {
        description: '`items` (the default): a line per record; `rows`: a line per read of records as arrays',
      },
    ),
  ),
});

const errors = errorReplies(400, 401, 429);

/**
 * The bot's pull side (docs/design.md, Events): one guild, one user, or every active record in
 * pages or as one stream. Registered only when BOT_API_TOKEN is set, so without one all four are 404.
 */
const botPremiumRoutes: FastifyPluginAsyncTypebox<{ core: Core }> = async (app, { core }) => {
  const token = core.config.botApiToken;
  if (token === null) return;
  const tokenMatches = botTokenChecker(token);
  const botKey = `bot:${botTokenFingerprint(token)}`;
  const routeOptions = {
    // Counted at onRequest, before the token is checked: guesses count too (per IP).
    config: perClientRateLimit(core.config.botRateLimitPerMinute, (request) =>
      tokenMatches(request.headers.authorization) ? botKey : null,
    ),
    // Before validation, so a caller without the token learns nothing about its parameters either.
    preValidation: async (request: FastifyRequest) => {
      if (!tokenMatches(request.headers.authorization)) throw invalidBotToken();
    },
  };
  const security = [{ botToken: [] }];

  app.get(
    '/api/bot/guilds/:guildId/premium',
    {
      ...routeOptions,
      schema: {
        tags: ['bot'],
        summary: "A guild's premium (an unknown guild is not premium, at version 0)",
        security,
        params: Type.Object({ guildId: Type.String({ pattern: PROVIDER_ID_PATTERN }) }),
        response: { 200: GuildPremiumReply, ...errors },
      },
    },
    async (request) => findGuildPremium(core.sequelize, request.params.guildId),
  );

  app.get(
    '/api/bot/users/:providerId/premium',
    {
      ...routeOptions,
      schema: {
        tags: ['bot'],
        summary: "A user's own premium (an unknown user is not premium, at version 0)",
        security,
        params: Type.Object({ providerId: ProviderId }),
        response: { 200: UserPremiumReply, ...errors },
      },
    },
    async (request) => findUserPremium(core.sequelize, request.params.providerId),
  );

  app.get(
    '/api/bot/premium',
    {
      ...routeOptions,
      schema: {
        tags: ['bot'],
        summary: 'Every active record of a category, in keyset pages: the snapshot a bot starts from',
        security,
        querystring: SnapshotQuery,
        response: {
          200: Type.Object({
            items: Type.Array(Type.Union([GuildPremiumReply, UserPremiumReply])),
            nextCursor: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { category, cursor, limit } = request.query;
      return snapshotPage(core.sequelize, {
        category,
        cursor,
        limit: limit === undefined ? undefined : Number(limit),
      });
    },
  );

  app.get(
    '/api/bot/premium/stream',
    {
      ...routeOptions,
      schema: {
        tags: ['bot'],
        summary: 'Every active record of both categories as one NDJSON stream, read in one consistent view',
        description:
          'One line per record, each an item of `GET /api/bot/premium` (SERVER records, then USER), then ' +
          'one line `{"end": true, "records": <count>, "readAt": <instant>}`. A stream without that line ' +
          'was cut short: start again. `format=rows`: one line per read of up to 5,000 records of a ' +
          'category, `{"category", "records": [[key, expiresAt ms, version, tier, slots (SERVER)]], ' +
          '"features": {<tier>: <features>}}`, then the same end line.',
        security,
        querystring: StreamQuery,
        response: {
          200: {
            description: 'NDJSON: the records, then the end line',
            content: { 'application/x-ndjson': { schema: Type.String() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      // The first read before the status: a database that fails at once is a 500, not a cut stream.
      const lines = snapshotLines(core.sequelize, { format: request.query.format });
      let first: IteratorResult<string> | null = await lines.next();
      // An iterator, not a generator: a reader gone before the first chunk still ends the transaction.
      const chunks: AsyncIterable<string> = {
        [Symbol.asyncIterator]: () => ({
          next: async () => {
            const next = first ?? (await lines.next());
            first = null;
            return next;
          },
          return: async () => {
            first = null;
            return lines.return(undefined);
          },
        }),
      };
      // Bytes, not objects: the writer pulls the next read only once the socket has taken the last.
      return reply
        .type('application/x-ndjson')
        .header('cache-control', 'no-store')
        .send(Readable.from(chunks, { objectMode: false }));
    },
  );
};

export default botPremiumRoutes;
