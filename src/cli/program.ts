import { Command } from 'commander';
import { registerCodesCreate } from './commands/codes-create';
import { registerCodesList } from './commands/codes-list';
import { registerCodesRevoke } from './commands/codes-revoke';
import { registerDbMigrate } from './commands/db-migrate';
import { registerDbStatus } from './commands/db-status';
import { registerGrant } from './commands/grant';
import { registerOffers } from './commands/offers';
import { registerInvoicesExport } from './commands/invoices-export';
import { registerInvoicesList } from './commands/invoices-list';
import { registerInvoicesPdf } from './commands/invoices-pdf';
import { registerInvoicesShow } from './commands/invoices-show';
import { registerOrdersList } from './commands/orders-list';
import { registerOrdersReconcile } from './commands/orders-reconcile';
import { registerOrdersRefund } from './commands/orders-refund';
import { registerOrdersShow } from './commands/orders-show';
import { registerJobsDead, registerJobsList } from './commands/jobs-list';
import { registerJobsRetry } from './commands/jobs-retry';
import { registerNoticesList } from './commands/notices-list';
import { registerNoticesRetry } from './commands/notices-retry';
import { registerMessagesList } from './commands/messages-list';
import { registerOutboxDead } from './commands/outbox-dead';
import { registerOutboxRetry } from './commands/outbox-retry';
import { registerOutboxStats } from './commands/outbox-stats';
import { registerPlansAdd } from './commands/plans-add';
import { registerPlansArchive } from './commands/plans-archive';
import { registerPlansList } from './commands/plans-list';
import { registerPlansRename } from './commands/plans-rename';
import { registerPlansRestore } from './commands/plans-restore';
import { registerPlansSetPrice } from './commands/plans-set-price';
import { registerPlansSync } from './commands/plans-sync';
import { registerReportCustomers } from './commands/report-customers';
import { registerReportDisputes } from './commands/report-disputes';
import { registerReportExport } from './commands/report-export';
import { registerReportRevenue } from './commands/report-revenue';
import { registerReportSales } from './commands/report-sales';
import { registerReportSubscribers } from './commands/report-subscribers';
import { registerRevoke } from './commands/revoke';
import { registerRolesStatus } from './commands/roles-status';
import { registerRolesSync } from './commands/roles-sync';
import { registerRevokesHeld } from './commands/revokes-held';
import { registerRevokesRelease } from './commands/revokes-release';
import { registerSubscriptionsCancel } from './commands/subscriptions-cancel';
import { registerSubscriptionsChange } from './commands/subscriptions-change';
import { registerSubscriptionsList } from './commands/subscriptions-list';
import { registerSubscriptionsShow } from './commands/subscriptions-show';
import { registerSettings } from './commands/settings';
import { registerTiersAdd } from './commands/tiers-add';
import { registerTiersList } from './commands/tiers-list';
import { registerTiersSet } from './commands/tiers-set';
import { registerTiersSetFeatures } from './commands/tiers-set-features';
import { registerTransfer } from './commands/transfer';
import { registerBundlesBind } from './commands/bundles-bind';
import { registerBundlesList } from './commands/bundles-list';
import { registerBundlesReclaim } from './commands/bundles-reclaim';
import { registerBundlesUnbind } from './commands/bundles-unbind';
import { registerUsersFind } from './commands/users-find';
import { registerUsersShow } from './commands/users-show';
import { registerWebhooks } from './commands/webhooks';
import { Session, type GlobalOptions } from './session';

/** After a usage error, one line saying where the help is, not the whole help (which buries the error). */
function hintHelpAfterErrors(command: Command, name = command.name()): void {
  command.showHelpAfterError(`Run '${name} --help' for usage.`);
  for (const sub of command.commands) hintHelpAfterErrors(sub, `${name} ${sub.name()}`);
}

/**
 * The `premium` program. Subcommands made with `.command()` inherit `exitOverride` (so every usage
 * error reaches `reportError`) from their parent.
 */
export function buildProgram(): { program: Command; session: Session } {
  const program = new Command('premium')
    .description(
      'Operate the premium service: users, manual grants, orders, the catalog, the outbox, the database.',
    )
    .option('--json', 'print one JSON document and nothing else on stdout')
    .option('--verbose', 'print stack traces with errors')
    .exitOverride()
    .configureHelp({ showGlobalOptions: true });
  const session = new Session(() => program.opts<GlobalOptions>());

  const users = program.command('users').description('look users up');
  registerUsersShow(users, session);
  registerUsersFind(users, session);

  registerGrant(program, session);
  registerRevoke(program, session);
  registerTransfer(program, session);
  registerOffers(program, session);

  const bundles = program
    .command('bundles')
    .description("bundles: one purchase's slots bound to guilds; list, bind, unbind, reclaim");
  registerBundlesList(bundles, session);
  registerBundlesBind(bundles, session);
  registerBundlesUnbind(bundles, session);
  registerBundlesReclaim(bundles, session);

  const revokes = program
    .command('revokes')
    .description('automatic revokes the revocation guard held past MAX_REVOKES_PER_HOUR');
  registerRevokesHeld(revokes, session);
  registerRevokesRelease(revokes, session);

  const roles = program
    .command('roles')
    .description('Discord roles that follow premium: the queue, the drift sync (docs/roles.md)');
  registerRolesStatus(roles, session);
  registerRolesSync(roles, session);

  const codes = program.command('codes').description('gift codes: create, list, revoke');
  registerCodesCreate(codes, session);
  registerCodesList(codes, session);
  registerCodesRevoke(codes, session);

  const orders = program
    .command('orders')
    .description('look orders up, reconcile them with Razorpay, refund them');
  registerOrdersList(orders, session);
  registerOrdersShow(orders, session);
  registerOrdersReconcile(orders, session);
  registerOrdersRefund(orders, session);

  const subscriptions = program.command('subscriptions').description('subscriptions that renew premium');
  registerSubscriptionsList(subscriptions, session);
  registerSubscriptionsShow(subscriptions, session);
  registerSubscriptionsCancel(subscriptions, session);
  registerSubscriptionsChange(subscriptions, session);

  const report = program
    .command('report')
    .description(
      "the seller's figures: revenue, subscribers, disputes, recent sales, customers, CSV exports",
    );
  registerReportRevenue(report, session);
  registerReportSubscribers(report, session);
  registerReportDisputes(report, session);
  registerReportSales(report, session);
  registerReportCustomers(report, session);
  registerReportExport(report, session);

  const invoices = program
    .command('invoices')
    .description("tax invoices (or receipts) and credit notes: list, show, PDF, the month's export");
  registerInvoicesList(invoices, session);
  registerInvoicesShow(invoices, session);
  registerInvoicesPdf(invoices, session);
  registerInvoicesExport(invoices, session);

  const tiers = program
    .command('tiers')
    .description('the tiers plans sell, with the features the bot switches on: list, add, set, set-features');
  registerTiersList(tiers, session);
  registerTiersAdd(tiers, session);
  registerTiersSet(tiers, session);
  registerTiersSetFeatures(tiers, session);

  const plans = program
    .command('plans')
    .description(
      'the plans on sale and their prices: list, add, set-price, rename, archive, restore, sync with Razorpay',
    );
  registerPlansList(plans, session);
  registerPlansAdd(plans, session);
  registerPlansSetPrice(plans, session);
  registerPlansRename(plans, session);
  registerPlansArchive(plans, session);
  registerPlansRestore(plans, session);
  registerPlansSync(plans, session);

  registerSettings(program, session);

  const outbox = program.command('outbox').description('the events on their way to the bot');
  registerOutboxStats(outbox, session);
  registerOutboxDead(outbox, session);
  registerOutboxRetry(outbox, session);

  const notices = program
    .command('notices')
    .description("the seller's Discord notices of sales, failed renewals, disputes and held revokes");
  registerNoticesList(notices, session);
  registerNoticesRetry(notices, session);

  const messages = program
    .command('messages')
    .description("the buyers' Discord DMs: receipts and refunds (docs/buyer-messages.md)");
  registerMessagesList(messages, session);

  const jobs = program
    .command('jobs')
    .description('the work queue the worker drains: role syncs, seller notices, webhook deliveries');
  registerJobsList(jobs, session);
  registerJobsDead(jobs, session);
  registerJobsRetry(jobs, session);

  registerWebhooks(program, session);

  const db = program.command('db').description('the database schema');
  registerDbMigrate(db, session);
  registerDbStatus(db, session);

  hintHelpAfterErrors(program);
  return { program, session };
}
