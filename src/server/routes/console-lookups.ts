import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { describeGuild } from '../../core/admin/guilds';
import { describeOrder } from '../../core/admin/orders';
import { listBundles } from '../../core/bundles';
import { listWaitingEvents } from '../../core/admin/outbox';
import { describeUser, findUsers } from '../../core/admin/users';
import { AppError } from '../../core/errors';
import { invoiceOfPayment } from '../../core/invoices';
import { invoicePdf } from '../../core/invoices/pdf';
import { openDisputes, revenueReport, subscribersReport } from '../../core/reports';
import { mrrByMonth } from '../../core/reports/mrr-history';
import { describeSubscriptionWithCharges, findSubscriptions } from '../../core/subscriptions/list';
import { PROVIDER_ID_PATTERN } from '../../core/users';
import type { AppOptions } from '../app-options';
import { operatorOf } from '../console/guard';
import { GuildId, ProviderId } from '../schemas';

const hide = true;
const RECENT = 10;
const SNOWFLAKE = new RegExp(PROVIDER_ID_PATTERN);

const SearchQuery = Type.Object({ q: Type.String({ minLength: 1, maxLength: 100 }) });

/**
 * What the console reads: who is signed in, the overview's figures (src/core/reports, as `premium report`), a search, and one user, guild, order or subscription with
 * its premium, orders, subscriptions, bundles, ledger and the events the bot has not received yet. The same
 * `src/core/admin` functions the CLI's `users show`, `orders show` and `subscriptions show` print.
 */
const consoleLookupRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;

  app.get('/api/console/me', { schema: { hide } }, async (request) => {
    const { operatorId, username } = operatorOf(request);
    // The zone the console writes times in: every time in its JSON is UTC.
    return { operatorId, username, timeZone: core.config.reportTimeZone };
  });

  /** The figures of the overview: revenue by day for 90 days, MRR by month, subscribers, disputes. */
  app.get('/api/console/overview', { schema: { hide } }, async () => {
    const [revenue, mrr, subscribers, disputes] = await Promise.all([
      revenueReport(core, { by: 'day' }),
      mrrByMonth(core),
      subscribersReport(core),
      openDisputes(core),
    ]);
    return { revenue, mrrByMonth: mrr, subscribers, openDisputes: disputes };
  });

  /**
   * An order id (`order_…`) or subscription id (`sub_…`) names that one; anything else finds users by
   * id or name, and, for a snowflake, the guild of that id.
   */
  app.get('/api/console/search', { schema: { hide, querystring: SearchQuery } }, async (request) => {
    const text = request.query.q.trim();
    const none = { users: [], guilds: [], orderIds: [], subscriptionIds: [] };
    if (text.startsWith('order_'))
      return { ...none, orderIds: [(await describeOrder(sequelize, text)).order.orderId] };
    if (text.startsWith('sub_'))
      return { ...none, subscriptionIds: [(await describeSubscriptionWithCharges(text)).subscriptionId] };
    const [users, guild] = await Promise.all([
      findUsers(sequelize, text, { limit: RECENT }).then((page) => page.rows),
      SNOWFLAKE.test(text) ? describeGuild(sequelize, text) : null,
    ]);
    return { ...none, users, guilds: guild ? [{ guildId: guild.guildId, name: guild.name }] : [] };
  });

  app.get(
    '/api/console/users/:providerId',
    { schema: { hide, params: Type.Object({ providerId: ProviderId }) } },
    async (request) => {
      const { providerId } = request.params;
      const [overview, subscriptions, bundles, waitingEvents] = await Promise.all([
        describeUser(sequelize, providerId),
        findSubscriptions({ providerId, limit: RECENT }),
        listBundles(sequelize, providerId),
        listWaitingEvents(sequelize, { providerId }),
      ]);
      return { ...overview, subscriptions, bundles, waitingEvents };
    },
  );

  app.get(
    '/api/console/guilds/:guildId',
    { schema: { hide, params: Type.Object({ guildId: GuildId }) } },
    async (request) => {
      const guild = await describeGuild(sequelize, request.params.guildId);
      if (!guild)
        throw AppError.notFound(
          'GUILD_NOT_FOUND',
          `no one has signed in with guild ${request.params.guildId}`,
        );
      return guild;
    },
  );

  app.get(
    '/api/console/orders/:orderId',
    { schema: { hide, params: Type.Object({ orderId: Type.String({ minLength: 1, maxLength: 64 }) }) } },
    async (request) => describeOrder(sequelize, request.params.orderId),
  );

  // The invoice (or receipt) of a payment with its credit notes, as the buyer gets it: a link opens it.
  app.get(
    '/api/console/invoices/:paymentId',
    { schema: { hide, params: Type.Object({ paymentId: Type.String({ minLength: 1, maxLength: 64 }) }) } },
    async (request, reply) => {
      const invoice = await invoiceOfPayment(sequelize, request.params.paymentId);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${invoice.number.replace(/\//g, '-')}.pdf"`)
        .send(await invoicePdf(invoice));
    },
  );

  app.get(
    '/api/console/subscriptions/:subscriptionId',
    {
      schema: {
        hide,
        params: Type.Object({ subscriptionId: Type.String({ minLength: 1, maxLength: 64 }) }),
      },
    },
    async (request) => describeSubscriptionWithCharges(request.params.subscriptionId),
  );
};

export default consoleLookupRoutes;
