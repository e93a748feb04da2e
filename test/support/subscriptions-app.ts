import type { LightMyRequestResponse } from 'fastify';
import { QueryTypes } from 'sequelize';
import { addPlan } from '../../src/core/catalog';
import type { User } from '../../src/core/models';
import { razorpayClientFor } from '../../src/core/payments/processor';
import { syncPlans } from '../../src/core/subscriptions/plans-sync';
import type { SubscriptionCheckoutResponse } from '../../src/sandbox';
import type { TestApp } from './app';
import { resetDatabase } from './context';
import { pollUntil } from './wait';
import { bearer, post, usePaymentsApp, type PaymentsTestApp } from './payments-app';

/**
 * The payments app with the processor's plans synced (as `premium plans sync` does, into the config the
 * routes read) and the sandbox's webhooks pointed at the listening API.
 */
export function useSubscriptionsApp(overrides: NodeJS.ProcessEnv = {}): () => PaymentsTestApp {
  const getApp = usePaymentsApp(overrides);
  beforeAll(async () => {
    const app = getApp();
    // The catalog as seeded, not as the worker's previous test file left it (a plan archived there).
    await resetDatabase(app.core);
    // The catalog holds them until the next test empties it; the configuration's ids outlive that.
    const { plans } = await syncPlans(app.core, razorpayClientFor(app.core.config));
    app.core.config.razorpayPlanIds = Object.fromEntries(plans.map((plan) => [plan.planType, plan.planId]));
    app.sandbox.razorpay.setWebhookUrl(app.webhookUrl);
  });
  return getApp;
}

/** A renewing plan of premium for a user or a server, ₹149 for 30 days, its first `trialDays` free. */
export async function addTrialPlan(app: TestApp, code = 'Trial7', trialDays = 7): Promise<void> {
  await addPlan(app.core.sequelize, razorpayClientFor(app.core.config), {
    code,
    tier: 'premium',
    scope: 'ANY',
    days: 30,
    price: 149,
    renews: true,
    trialDays,
  });
}

export function createSubscriptionAs(
  app: TestApp,
  user: User,
  body: object,
): Promise<LightMyRequestResponse> {
  return post(
    app,
    '/api/payment/create-subscription',
    { providerId: user.providerId, ...body },
    bearer(app, user),
  );
}

export function verifySubscriptionAs(
  app: TestApp,
  user: User,
  checkout: SubscriptionCheckoutResponse,
): Promise<LightMyRequestResponse> {
  return post(
    app,
    '/api/payment/verify-subscription',
    { providerId: user.providerId, ...checkout },
    bearer(app, user),
  );
}

export function cancelAs(app: TestApp, user: User, subscriptionId: string): Promise<LightMyRequestResponse> {
  return post(app, `/api/payment/subscriptions/${subscriptionId}/cancel`, {}, bearer(app, user));
}

/** Creates, authorises at the sandbox (webhooks delivered) and verifies a subscription; returns its id. */
export async function subscribe(app: PaymentsTestApp, user: User, body: object): Promise<string> {
  const created = await createSubscriptionAs(app, user, body);
  expect(created.statusCode).toBe(200);
  const { subscriptionId } = created.json();
  const checkout = await app.sandbox.razorpay.subscriptions.authorize(subscriptionId, { webhooks: true });
  expect((await verifySubscriptionAs(app, user, checkout)).statusCode).toBe(200);
  return subscriptionId;
}

export interface ChargeRow {
  payment_id: string;
  status: string;
  cycle_end: Date | null;
  grant_id: number | null;
  source: string;
}

export function chargesOf(app: TestApp, subscriptionId: string): Promise<ChargeRow[]> {
  return app.core.sequelize.query<ChargeRow>(
    `SELECT c.payment_id, c.status, c.cycle_end, c.grant_id, c.source FROM subscription_charges c
     JOIN subscriptions s ON s.id = c.subscription_id WHERE s.processor_subscription_id = $1 ORDER BY c.id`,
    { bind: [subscriptionId], type: QueryTypes.SELECT },
  );
}

/** A Monthly USER subscription authorised and charged once (its webhooks delivered); its charge's payment. */
export async function chargedMonthlySubscription(
  app: PaymentsTestApp,
  user: User,
  extra: object = {},
): Promise<{ subscriptionId: string; paymentId: string }> {
  const subscriptionId = await subscribe(app, user, { planType: 'Monthly', category: 'USER', ...extra });
  const [charge] = await pollUntil('the first charge', async () => {
    const charges = await chargesOf(app, subscriptionId);
    return charges.length > 0 && charges;
  });
  return { subscriptionId, paymentId: charge!.payment_id };
}

export interface LedgerRow {
  id: number;
  kind: string;
  source: string;
  actor: string;
  days: number;
  expires_before: Date | null;
  expires_after: Date;
  version: number;
  reason: string;
  revokes_grant_id: number | null;
}

export function ledger(app: TestApp): Promise<LedgerRow[]> {
  return app.core.sequelize.query<LedgerRow>(
    `SELECT id, kind, source, actor, days, expires_before, expires_after, version, reason, revokes_grant_id
     FROM premium_grants ORDER BY id`,
    { type: QueryTypes.SELECT },
  );
}

export async function subscriptionRow(app: TestApp, subscriptionId: string) {
  const [row] = await app.core.sequelize.query<{
    status: string;
    cancel_at_cycle_end: boolean;
    paid_count: number;
    current_end: Date | null;
  }>(
    `SELECT status, cancel_at_cycle_end, paid_count, current_end FROM subscriptions
     WHERE processor_subscription_id = $1`,
    { bind: [subscriptionId], type: QueryTypes.SELECT },
  );
  return row;
}

export const HOUR_MS = 3_600_000;
