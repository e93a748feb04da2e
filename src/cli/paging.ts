import type { Command } from 'commander';
import { positiveInteger, text } from './arguments';

export interface PageOptions {
  limit: number;
  cursor?: string;
}

/** The paging options of a list: `--limit` and `--cursor` (the `nextCursor` the page before gave). */
export function withPaging(command: Command, what: string, defaultLimit: number): Command {
  return command
    .option('--limit <n>', `at most this many ${what} per page`, positiveInteger, defaultLimit)
    .option('--cursor <cursor>', 'the page after the one that gave this cursor (nextCursor in --json)', text);
}

/** The line under a page that has a next one. */
export function nextPageLine(nextCursor: string | null): string {
  return nextCursor === null ? '' : `\nMore: --cursor ${nextCursor}`;
}
