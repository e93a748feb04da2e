import type { Sequelize } from 'sequelize';
import { AppError } from '../errors';
import type { Category } from '../premium/types';
import {
  activeRecordsAfter,
  guildAnswer,
  userAnswer,
  type GuildPremium,
  type UserPremium,
} from './premium-records';

export const SNAPSHOT_PAGE = { default: 500, max: 1000 } as const;

export interface SnapshotPage {
  items: (GuildPremium | UserPremium)[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

/** Opaque to the bot: the category and the last record id of the page, so a cursor fits one category. */
function encodeCursor(category: Category, id: number): string {
  return Buffer.from(`${category}:${id}`).toString('base64url');
}

function decodeCursor(category: Category, cursor: string): number {
  const match = /^(USER|SERVER):([0-9]{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match || match[1] !== category) {
    throw AppError.validation('INVALID_CURSOR', `cursor is not one this API gave for category ${category}`);
  }
  return Number(match[2]);
}

/**
 * One page of every active record of a category, in record-id order (keyset: a record that changes
 * while a bot pages keeps its place, and the stream tells the bot about the change).
 */
export async function snapshotPage(
  sequelize: Sequelize,
  request: { category: Category; cursor?: string; limit?: number },
): Promise<SnapshotPage> {
  const { category } = request;
  const limit = request.limit ?? SNAPSHOT_PAGE.default;
  const afterId = request.cursor === undefined ? 0 : decodeCursor(category, request.cursor);
  const rows = await activeRecordsAfter(sequelize, category, afterId, limit + 1);
  const page = rows.slice(0, limit);
  const answer = category === 'SERVER' ? guildAnswer : userAnswer;
  return {
    items: page.map((row) => answer(row, row.key)),
    nextCursor: rows.length > limit ? encodeCursor(category, page[page.length - 1]!.id) : null,
  };
}
