import type { Core } from '..';
import type { Category } from '../premium/types';
import { AppError } from '../errors';
import { SUBSCRIPTION_STATUSES } from '../models/subscription';
import { FIRST_REPORT_DAY, today } from './dates';
import { inr, select, selectWithoutJit } from './select';
import {
  ACTIVE_PREMIUM_SQL,
  BY_STATUS_SQL,
  FAILING_CHARGES_SQL,
  LIVE_STATUSES,
  MOVEMENTS_SQL,
  MRR_BY_STANDING_SQL,
  MRR_SQL,
  TRIAL_REFUSALS_SQL,
  TRIALS_SQL,
} from './sql';
import type {
  FailingCharge,
  LiveStanding,
  SubscriberMovements,
  SubscribersReport,
  SubscriptionStatus,
  TrialsOfMonth,
} from './types';

const LIVE_STANDINGS: LiveStanding[] = ['renewing', 'cancelling', 'failing'];

const FIRST_REPORT_MONTH = FIRST_REPORT_DAY.slice(0, 7);

type MovementRow = Omit<SubscriberMovements, 'churn'> & { ended: number };
type FailingRow = Omit<FailingCharge, 'amount' | 'currentEnd' | 'graceUntil' | 'since'> & {
  amountPaise: number;
  currentEnd: Date | null;
  graceUntil: Date | null;
  since: Date | null;
};

/**
 * Live subscriptions by status, MRR, active premium and failing charges (now), and the movements and churn
 * of `month` (`YYYY-MM`, default the current one in REPORT_TIMEZONE) and the 11 months before it.
 */
export async function subscribersReport(
  core: Pick<Core, 'sequelize' | 'config'>,
  { month }: { month?: string } = {},
): Promise<SubscribersReport> {
  const { sequelize, config } = core;
  if (month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) {
    throw AppError.validation('INVALID_MONTH', `month must be like 2026-01, not "${month}"`);
  }
  if (month !== undefined && month < FIRST_REPORT_MONTH) {
    throw AppError.validation(
      'INVALID_MONTH',
      `month must be ${FIRST_REPORT_MONTH} or later, not "${month}"`,
    );
  }
  const lastMonth = `${month ?? today(config.reportTimeZone).slice(0, 7)}-01`;
  const [statusRows, [mrr], standingRows, [activePremium], movementRows, failingRows, [trials], refusals] =
    await Promise.all([
      select<{ status: SubscriptionStatus; count: number }>(sequelize, BY_STATUS_SQL, []),
      select<{ paise: string }>(sequelize, MRR_SQL, []),
      select<{ standing: LiveStanding; subscriptions: number; paise: string }>(
        sequelize,
        MRR_BY_STANDING_SQL,
        [],
      ),
      select<Record<Category, number>>(sequelize, ACTIVE_PREMIUM_SQL, []),
      selectWithoutJit<MovementRow>(sequelize, MOVEMENTS_SQL, [config.reportTimeZone, lastMonth]),
      select<FailingRow>(sequelize, FAILING_CHARGES_SQL, [config.subscriptionGraceHours]),
      select<Omit<TrialsOfMonth, 'refusals'>>(sequelize, TRIALS_SQL, [config.reportTimeZone, lastMonth]),
      select<Omit<TrialsOfMonth['refusals'][number], 'at'> & { at: Date }>(sequelize, TRIAL_REFUSALS_SQL, [
        config.reportTimeZone,
        lastMonth,
      ]),
    ]);
  const byStatus = Object.fromEntries(SUBSCRIPTION_STATUSES.map((status) => [status, 0])) as Record<
    SubscriptionStatus,
    number
  >;
  for (const { status, count } of statusRows) byStatus[status] = count;
  const movements = movementRows.map(({ ended, ...month }) => ({
    ...month,
    churn: month.liveAtStart === 0 ? null : Math.round((ended / month.liveAtStart) * 10_000) / 10_000,
  }));
  return {
    timeZone: config.reportTimeZone,
    currency: 'INR',
    live: LIVE_STATUSES.reduce((sum, status) => sum + byStatus[status as SubscriptionStatus], 0),
    byStatus,
    mrr: inr(mrr!.paise),
    liveByStanding: Object.fromEntries(
      LIVE_STANDINGS.map((standing) => {
        const row = standingRows.find((each) => each.standing === standing);
        return [standing, { subscriptions: row?.subscriptions ?? 0, mrr: inr(row?.paise ?? 0) }];
      }),
    ) as SubscribersReport['liveByStanding'],
    churn: movements.at(-1)!.churn,
    activePremium: activePremium!,
    movements,
    failingCharges: failingRows.map(({ amountPaise, currentEnd, graceUntil, since, ...charge }) => ({
      ...charge,
      amount: inr(amountPaise),
      currentEnd: currentEnd?.toISOString() ?? null,
      graceUntil: graceUntil?.toISOString() ?? null,
      since: since?.toISOString() ?? null,
    })),
    trials: {
      ...trials!,
      refusals: refusals.map(({ at, ...refusal }) => ({ ...refusal, at: at.toISOString() })),
    },
  };
}
