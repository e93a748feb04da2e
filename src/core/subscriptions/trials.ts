import type { Transaction } from 'sequelize';
import type { Core } from '..';
import { messagePlan, recordMessage } from '../buyer-messages';
import { takeAdvisoryLock } from '../db/advisory-locks';
import { execute, selectRows } from '../db/database';
import { isAppError } from '../errors';
import { localTime } from '../local-time';
import { planOf, SLOTS_PER_PURCHASE } from '../plans';
import { grantPremium } from '../premium/grant';
import { aggregateKeyFor, appendEvent } from '../premium/outbox';
import { announcedTier } from '../premium/records';
import { eventTypeFor, type Category } from '../premium/types';
import type { RazorpayClient } from '../processor/razorpay-client';
import { cancelSubscription } from './cancel';
import type { LockedSubscription } from './locked-subscription';
import {
  HAD_TRIAL,
  INSERT_TRIAL,
  REFUSED_TRIAL_SETTLED,
  REFUSED_TRIALS_LIVE,
  TRIAL_BY_ID,
  TRIAL_ENDING_ANNOUNCED,
  TRIAL_KNOWN,
  TRIAL_OF_SUBSCRIPTION,
  TRIAL_REFUSAL,
  TRIALS_ENDING,
} from './sql';
import { targetRecord } from './target-record';
import { instrumentHash, type InstrumentReading } from './trial-instrument';

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/**
 * `*_PREMIUM_TRIAL_ENDING` is announced once the first charge is this close. The RBI's pre-debit notice
 * is 24 hours; the window is twice that, so a reminders job that runs at least once a day announces it
 * in time, and a trial shorter than the window announces it when it starts.
 */
export const TRIAL_ENDING_NOTICE_MS = 48 * HOUR_MS;

export type TrialRefusal = 'USER_HAD_TRIAL' | 'GUILD_HAD_TRIAL' | 'INSTRUMENT_USED';

/** Whether a buyer (or the guild, for a SERVER purchase) had a trial: create-subscription then asks for none. */
export async function hadTrial(core: Pick<Core, 'sequelize'>, buyerUserId: number, guildId: string | null) {
  const [row] = await selectRows<{ had: boolean }>(core.sequelize, HAD_TRIAL, [buyerUserId, guildId]);
  return row!.had;
}

export type TrialOutcome =
  { result: 'none' } | { result: 'started'; grantId: number } | { result: 'refused'; reason: TrialRefusal };

/**
 * Starts a locked subscription's trial once its mandate is authorised (`subscription.authenticated`,
 * verify-subscription or the reconciler, whichever comes first), from the authorisation payment's
 * instrument (`readInstrument`): the plan's tier for the trial's days through `grantPremium` (source
 * `trial`), the tier running to the first charge plus SUBSCRIPTION_GRACE_HOURS, as after a paid cycle.
 * Refused, under one lock for every trial, when the buyer or the guild had one, or the instrument was seen
 * on any trial: the refusal is recorded with its reason for the operator, no premium is granted, and
 * `settleRefusedTrials` cancels the subscription at Razorpay. An instrument that could not be read leaves
 * the user and guild rules alone, and the trial row says why. Once per subscription; without a reading
 * nothing is decided yet.
 */
export async function startTrial(
  core: Pick<Core, 'sequelize' | 'config'>,
  { subscription, buyer }: LockedSubscription,
  reading: InstrumentReading | null,
  transaction: Transaction,
): Promise<TrialOutcome> {
  if (subscription.trialDays === 0 || subscription.startAt === null || reading === null) {
    return { result: 'none' };
  }
  await takeAdvisoryLock(transaction, 'trials');
  const [known] = await selectRows<{ known: boolean }>(transaction, TRIAL_KNOWN, [subscription.id]);
  if (known!.known) return { result: 'none' };
  const hash = reading.instrument && instrumentHash(core.config.jwtSecret, reading.instrument);
  const [refusal] = await selectRows<{ reason: TrialRefusal | null }>(transaction, TRIAL_REFUSAL, [
    subscription.buyerUserId,
    subscription.guildId,
    hash,
  ]);
  const row = [subscription.id, subscription.buyerUserId, subscription.guildId, hash, subscription.trialDays];
  if (refusal!.reason) {
    await execute(transaction, INSERT_TRIAL, [
      ...row,
      subscription.startAt,
      'refused',
      refusal!.reason,
      null,
      reading.unread,
    ]);
    return { result: 'refused', reason: refusal!.reason };
  }
  const change = await grantPremium(
    core.sequelize,
    {
      category: subscription.category,
      providerId: buyer.providerId,
      guildId: subscription.guildId,
      plan: { ...planOf({ ...subscription.get(), months: null }), durationDays: subscription.trialDays },
      source: 'trial',
      actor: 'trial',
      reason: `trial of subscription ${subscription.processorSubscriptionId}`,
      idempotencyKey: `trial:${subscription.processorSubscriptionId}`,
      atLeastUntil: new Date(subscription.startAt.getTime() + core.config.subscriptionGraceHours * HOUR_MS),
      subscriptionId: subscription.processorSubscriptionId,
    },
    { transaction },
  );
  const [inserted] = await selectRows<{ id: number }>(transaction, INSERT_TRIAL, [
    ...row,
    subscription.startAt,
    'running',
    null,
    change.grantId,
    reading.unread,
  ]);
  if (subscription.startAt.getTime() - Date.now() <= TRIAL_ENDING_NOTICE_MS) {
    const [trial] = await selectRows<EndingTrial>(transaction, TRIAL_BY_ID, [inserted!.id]);
    await announceTrialEnding(transaction, trial!, core.config.reportTimeZone);
  }
  return { result: 'started', grantId: change.grantId };
}

interface EndingTrial {
  id: number;
  firstChargeAt: Date;
  processorSubscriptionId: string;
  category: Category;
  guildId: string | null;
  planType: string;
  tier: string;
  durationDays: number;
  amountPaise: number;
  buyerUserId: number;
  providerId: string;
  /** The buyer's Discord name. */
  buyer: string;
}

/**
 * `*_PREMIUM_TRIAL_ENDING` of one trial, at its record's current version, and the buyer's `trial_ending`
 * message (`{date}` the first charge in `timeZone`, REPORT_TIMEZONE), marked announced.
 */
async function announceTrialEnding(
  transaction: Transaction,
  trial: EndingTrial,
  timeZone: string,
): Promise<void> {
  const target = { category: trial.category, guildId: trial.guildId, buyerUserId: trial.buyerUserId };
  const record = await targetRecord(target, transaction);
  if (record) {
    const running = await announcedTier(transaction, {
      category: trial.category,
      userId: trial.buyerUserId,
      guildId: trial.guildId,
    });
    await appendEvent(transaction, aggregateKeyFor(trial.guildId, trial.providerId), {
      type: eventTypeFor(trial.category, 'TRIAL_ENDING'),
      providerId: trial.providerId,
      guildId: trial.guildId,
      category: trial.category,
      planType: trial.planType,
      durationDays: 0,
      slots: SLOTS_PER_PURCHASE,
      expiresAt: record.expiresAt.toISOString(),
      version: record.version,
      orderId: null,
      source: 'trial',
      subscriptionId: trial.processorSubscriptionId,
      trial: true,
      firstChargeAt: trial.firstChargeAt.toISOString(),
      amount: trial.amountPaise / 100,
      tier: running.tier,
      features: running.features,
    });
  }
  const message = {
    kind: 'trial_ending' as const,
    to: trial.providerId,
    buyer: trial.buyer,
    plan: messagePlan(trial),
    amountPaise: trial.amountPaise,
    reference: trial.processorSubscriptionId,
    date: localTime(trial.firstChargeAt, timeZone),
  };
  await recordMessage(transaction, message, trial.processorSubscriptionId);
  await execute(transaction, TRIAL_ENDING_ANNOUNCED, [trial.id]);
}

/**
 * Announces `*_PREMIUM_TRIAL_ENDING`, and tells the buyer, for up to `limit` running trials whose first
 * charge comes within TRIAL_ENDING_NOTICE_MS of `now` (and has not come): once per trial. Returns how many.
 */
export async function announceTrialsEnding(
  transaction: Transaction,
  limit: number,
  timeZone: string,
  now: Date = new Date(),
): Promise<number> {
  const trials = await selectRows<EndingTrial>(transaction, TRIALS_ENDING, [
    limit,
    new Date(now.getTime() + TRIAL_ENDING_NOTICE_MS),
    now,
  ]);
  for (const trial of trials) await announceTrialEnding(transaction, trial, timeZone);
  return trials.length;
}

/** A refused trial whose subscription was cancelled at Razorpay: what the operator's log says. */
export interface SettledRefusal {
  subscriptionId: string;
  reason: TrialRefusal;
  providerId: string;
  guildId: string | null;
}

/**
 * Cancels at Razorpay, at once, the subscriptions whose trial was refused (an instrument, buyer or guild
 * that had one): the buyer authorised a mandate for a trial they do not get, so nothing is charged; they
 * may subscribe again without a trial. Up to `limit`; returns those settled, with their reasons. One the processor
 * cannot cancel now waits for the next call.
 */
export async function settleRefusedTrials(
  core: Core,
  processor: RazorpayClient,
  limit = 100,
): Promise<SettledRefusal[]> {
  const trials = await selectRows<
    { id: number; processorSubscriptionId: string } & Omit<SettledRefusal, 'subscriptionId'>
  >(core.sequelize, REFUSED_TRIALS_LIVE, [limit]);
  const settled: SettledRefusal[] = [];
  for (const trial of trials) {
    try {
      await cancelSubscription(core, processor, { subscriptionId: trial.processorSubscriptionId });
    } catch (error) {
      if (!isAppError(error) || error.code !== 'SUBSCRIPTION_ENDED') {
        if (isAppError(error) && error.kind === 'unavailable') continue;
        throw error;
      }
    }
    await execute(core.sequelize, REFUSED_TRIAL_SETTLED, [trial.id]);
    settled.push({
      subscriptionId: trial.processorSubscriptionId,
      reason: trial.reason,
      providerId: trial.providerId,
      guildId: trial.guildId,
    });
  }
  return settled;
}

/** A subscription's trial as its buyer and operators see it. */
export interface TrialView {
  status: 'running' | 'converted' | 'cancelled' | 'refused';
  days: number;
  firstChargeAt: string;
  refusedReason: TrialRefusal | null;
  /** Why the one-trial-per-instrument rule was not checked (no instrument could be read); null when it was. */
  instrumentUnread: string | null;
}

export async function trialOf(
  runner: Transaction | Core['sequelize'],
  subscriptionId: number,
): Promise<TrialView | null> {
  const [row] = await selectRows<Omit<TrialView, 'firstChargeAt'> & { firstChargeAt: Date }>(
    runner,
    TRIAL_OF_SUBSCRIPTION,
    [subscriptionId],
  );
  return row ? { ...row, firstChargeAt: row.firstChargeAt.toISOString() } : null;
}
