import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { GIFTS_BOUGHT } from './sql';

/** How many of a buyer's gifts their dashboard lists. */
const GIFTS_LISTED = 100;

/** A gift code as its buyer sees it (docs/codes.md): the code itself, to give away. */
export interface GiftBought {
  codeId: number;
  code: string;
  /** The order that bought it (`order_…`). */
  orderId: string;
  boughtAt: Date;
  planType: string;
  tier: string;
  days: number;
  /** `revoked`: its payment was refunded, or a dispute of it is open. */
  status: 'unused' | 'redeemed' | 'revoked';
  redeemedAt: Date | null;
  /** The Discord name of who redeemed it. */
  redeemedBy: string | null;
}

/** The gift codes the user bought in the store, newest first. */
export async function listGiftsBought(sequelize: Sequelize, providerId: string): Promise<GiftBought[]> {
  const rows = await selectRows<GiftBought>(sequelize, GIFTS_BOUGHT, [providerId, GIFTS_LISTED]);
  return rows.map((row) => ({ ...row, codeId: Number(row.codeId) }));
}
