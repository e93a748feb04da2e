import { Transaction, type Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import type { Category } from '../premium/types';
import {
  activeRecordsAfter,
  guildAnswer,
  userAnswer,
  type GuildPremium,
  type UserPremium,
} from './premium-records';
import { SNAPSHOT_LINES_AFTER, SNAPSHOT_READ_AT, SNAPSHOT_ROWS_AFTER } from './sql';

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

/** Records per read of the streamed snapshot: one statement, about 150 B a record, one read ahead. */
export const STREAM_PAGE = 5000;

/**
 * The streamed snapshot's last line: how many records it held and the instant it read them at (the
 * transaction's `now()`: every record active then, as of every change committed before it). A stream
 * without it was cut short and holds nothing a bot may trust as whole.
 */
export interface SnapshotEnd {
  end: true;
  records: number;
  readAt: string;
}

interface LinesPage {
  records: number;
  last_id: string | null;
  lines: string | null;
}

/**
 * How the streamed snapshot writes its records: `items`, one line per record, each an item of
 * `snapshotPage`; `rows`, one line per keyset read, its records as arrays and each tier's features once
 * (docs/api.md), about a third of the bytes for a bot to parse.
 */
export const SNAPSHOT_FORMATS = ['items', 'rows'] as const;
export type SnapshotFormat = (typeof SNAPSHOT_FORMATS)[number];

const PAGES_OF = { items: SNAPSHOT_LINES_AFTER, rows: SNAPSHOT_ROWS_AFTER } as const;

/**
 * Every active record of both categories (SERVER, then USER, each in record-id order) as NDJSON in
 * `format`, then one `SnapshotEnd` line. All of it read in one REPEATABLE READ, read-only transaction, so
 * the stream is one consistent view whatever commits meanwhile (the events stream carries those), in
 * keyset reads of `pageSize`, the next read sent while the last is written. Pulled: the caller takes the
 * next chunk when its writer has room (a slow reader slows the reads rather than filling memory).
 * Returning early (a reader gone) ends the transaction.
 */
export async function* snapshotLines(
  sequelize: Sequelize,
  { format = 'items', pageSize = STREAM_PAGE }: { format?: SnapshotFormat; pageSize?: number } = {},
): AsyncGenerator<string> {
  const transaction = await sequelize.transaction({
    isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ,
    readOnly: true,
  });
  let ahead: Promise<LinesPage> | null = null;
  try {
    // The first statement takes the transaction's snapshot: readAt and every page share it.
    const [{ read_at: readAt }] = (await selectRows<{ read_at: Date }>(transaction, SNAPSHOT_READ_AT)) as [
      { read_at: Date },
    ];
    const read = (category: Category, afterId: string) =>
      selectRows<LinesPage>(transaction, PAGES_OF[format][category], [afterId, pageSize]).then(
        ([page]) => page!,
      );
    let records = 0;
    for (const category of ['SERVER', 'USER'] satisfies Category[]) {
      ahead = read(category, '0');
      while (ahead !== null) {
        const page: LinesPage = await ahead;
        ahead = page.records === pageSize ? read(category, page.last_id!) : null;
        if (page.records === 0) break;
        records += page.records;
        yield `${page.lines}\n`;
      }
    }
    const end: SnapshotEnd = { end: true, records, readAt: readAt.toISOString() };
    yield `${JSON.stringify(end)}\n`;
  } finally {
    // A read sent ahead goes before the COMMIT on the connection: waited for, its failure moot.
    await ahead?.catch(() => undefined);
    await transaction.commit();
  }
}
