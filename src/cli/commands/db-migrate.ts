import type { Command } from 'commander';
import { loadMigrator } from '../migrator';
import type { Session } from '../session';

function render({ applied }: { applied: string[] }): string {
  return applied.length === 0
    ? 'Nothing to apply: the database is up to date.'
    : `Applied ${applied.length} migration(s):\n${applied.map((name) => `  ${name}`).join('\n')}`;
}

export function registerDbMigrate(db: Command, session: Session): void {
  db.command('migrate')
    .description('apply the pending migrations to DATABASE_URL')
    .action(async () => {
      const applied = await loadMigrator(session).up();
      session.emit({ applied: applied.map((migration) => migration.name) }, render);
    });
}
