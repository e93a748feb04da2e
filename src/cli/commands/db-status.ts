import type { Command } from 'commander';
import { table } from '../format';
import { loadMigrator } from '../migrator';
import type { Session } from '../session';

interface MigrationStatus {
  executed: string[];
  pending: string[];
}

function render({ executed, pending }: MigrationStatus): string {
  const rows = [...executed.map((name) => [name, 'applied']), ...pending.map((name) => [name, 'PENDING'])];
  const summary = pending.length === 0 ? 'Up to date.' : `${pending.length} pending: run premium db migrate.`;
  return `${table(['MIGRATION', 'STATE'], rows)}\n${summary}`;
}

export function registerDbStatus(db: Command, session: Session): void {
  db.command('status')
    .description('which migrations DATABASE_URL has, and which are pending')
    .action(async () => {
      const migrator = loadMigrator(session);
      // One after the other: each creates the bookkeeping table when missing, and two would race.
      const executed = await migrator.executed();
      const pending = await migrator.pending();
      session.emit({ executed: executed.map((m) => m.name), pending: pending.map((m) => m.name) }, render);
    });
}
