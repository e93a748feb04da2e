import type { Migration } from '../src/core/db/migrator';
import { alterBriefly } from '../src/core/db/online-migration';

/**
 * Why a trial was decided without its payment instrument (docs/trials.md, "The instrument"): the
 * authorisation payment named none the service can read from Razorpay's documented fields (a card
 * without its last four digits and network, an e-mandate whose token names no bank account, a method not
 * checked, or no authorisation payment at all). Null when the instrument was read and checked. The
 * operator sees it with the subscription's trial; the trial then rests on the user and guild rules alone.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await alterBriefly(sequelize, 'ALTER TABLE trials ADD COLUMN IF NOT EXISTS instrument_unread text');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE trials DROP COLUMN IF EXISTS instrument_unread');
};
