import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { csvLines } from '../../core/csv';
import { gstr1Files, returnPeriod, turnoverOfLastYear } from '../../core/invoices';
import { inr } from '../../core/invoices/tax';
import { zipFiles } from '../../core/zip';
import { customers, exportTable, EXPORTS, recentSales } from '../../core/reports';
import { readSettings } from '../../core/settings';
import type { AppOptions } from '../app-options';

const hide = true;
const PAGE = 50;
const Page = Type.Object({
  // A query string is text (the app does not coerce types): 1 to 200.
  limit: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|1[0-9][0-9]|200)$' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
});
const pageOf = ({ limit, cursor }: { limit?: string; cursor?: string }) => ({
  limit: limit === undefined ? PAGE : Number(limit),
  cursor,
});
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/**
 * The console's Sales and Customers (src/core/reports, as `premium report sales|customers`), and the
 * CSV downloads of revenue, orders and subscribers for a range of days (as `premium report export`).
 */
const consoleReportRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  app.get('/api/console/sales', { schema: { hide, querystring: Page } }, async (request) => {
    const page = await recentSales(core, pageOf(request.query));
    return { sales: page.rows, nextCursor: page.nextCursor, timeZone: core.config.reportTimeZone };
  });

  app.get('/api/console/customers', { schema: { hide, querystring: Page } }, async (request) => {
    const page = await customers(core, pageOf(request.query));
    return { customers: page.rows, nextCursor: page.nextCursor, timeZone: core.config.reportTimeZone };
  });

  // A download: the rows are written as they are read, never held whole.
  app.get(
    '/api/console/exports/:kind',
    {
      schema: {
        hide,
        params: Type.Object({ kind: Type.Union(EXPORTS.map((kind) => Type.Literal(kind))) }),
        querystring: Type.Object({ from: Day, to: Day }),
      },
    },
    async (request, reply) => {
      const table = exportTable(core, request.params.kind, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${table.filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csvLines(table.columns, table.rows)));
    },
  );

  // The GSTR-1 files of a month or quarter, zipped: what `premium invoices export --format gstr1` writes.
  app.get(
    '/api/console/gstr1',
    {
      schema: {
        hide,
        querystring: Type.Object({
          month: Type.Optional(Type.String({ maxLength: 7 })),
          quarter: Type.Optional(Type.String({ maxLength: 7 })),
        }),
      },
    },
    async (request, reply) => {
      const period = returnPeriod(request.query);
      const files = await gstr1Files(core.sequelize, period);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="gstr1-${period.label}.zip"`)
        .header('cache-control', 'no-store')
        .send(zipFiles(files.map((file) => ({ name: file.name, content: file.csv }))));
    },
  );

  // Without a GSTIN: the last 12 months' turnover against the registration threshold.
  app.get('/api/console/gst-threshold', { schema: { hide } }, async () => {
    const { invoicing } = await readSettings(core);
    const turnover = await turnoverOfLastYear(core.sequelize, invoicing);
    return {
      registered: invoicing.sellerGstin !== null,
      turnover: inr(turnover.turnoverPaise),
      threshold: inr(turnover.thresholdPaise),
      warn: turnover.warn,
    };
  });
};

export default consoleReportRoutes;
