import type { Sequelize, Transaction } from 'sequelize';
import { execute, selectRows } from '../db/database';
import {
  DELETE_LAPSED_RESERVATIONS,
  DELETE_RESERVATION,
  INSERT_RESERVATION,
  LIVE_RESERVATIONS,
  TARGET_RESERVED,
} from './sql';
import type { OrderTarget } from './types';

/** Past the processor's own timeout, a reservation is left by a server that died mid-call. */
const LEASE_MARGIN_MS = 60_000;

export function reservationLeaseMs(providerTimeoutMs: number): number {
  return providerTimeoutMs + LEASE_MARGIN_MS;
}

function targetKey({
  category,
  guildId,
  plan,
  offerId,
  billing,
  upgradeFromTier,
  upgradeSubscriptionId,
  gift,
}: OrderTarget): string {
  const billed = [billing.stateCode ?? '', billing.gstin ?? '', billing.name ?? ''];
  const priced = [
    plan.pricePaise,
    offerId ?? '',
    upgradeFromTier ?? '',
    upgradeSubscriptionId ?? '',
    gift ? 'gift' : '',
  ];
  return [category, guildId ?? '', plan.planType, plan.months ?? '', ...priced, ...billed].join(':');
}

/**
 * Records that this request is about to ask Razorpay for an order for `target` (the caller holds the
 * buyer's lock), clearing the buyer's reservations whose lease ran out.
 */
export async function reserveOrder(
  transaction: Transaction,
  target: OrderTarget,
  receipt: string,
  leaseMs: number,
): Promise<void> {
  await execute(transaction, DELETE_LAPSED_RESERVATIONS, [target.buyerUserId]);
  await execute(transaction, INSERT_RESERVATION, [receipt, target.buyerUserId, targetKey(target), leaseMs]);
}

/** Whether another request is asking Razorpay for an order for the same target right now. */
export async function isReserved(transaction: Transaction, target: OrderTarget): Promise<boolean> {
  const rows = await selectRows(transaction, TARGET_RESERVED, [target.buyerUserId, targetKey(target)]);
  return rows.length > 0;
}

/** The buyer's orders being created right now (they count as open), and when the first lease ends. */
export async function reservationsOf(
  transaction: Transaction,
  buyerUserId: number,
): Promise<{ count: number; firstEnds: Date | null }> {
  const [row] = await selectRows<{ count: number; firstEnds: Date | null }>(transaction, LIVE_RESERVATIONS, [
    buyerUserId,
  ]);
  return row!;
}

export async function releaseReservation(
  sequelize: Sequelize,
  receipt: string,
  transaction?: Transaction,
): Promise<void> {
  await execute(transaction ?? sequelize, DELETE_RESERVATION, [receipt]);
}
