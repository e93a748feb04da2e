import type { Command } from 'commander';
import type { Tier } from '../../core/catalog/types';
import { tiersTable } from '../catalog-render';
import type { Session } from '../session';

export function registerTiersList(tiers: Command, session: Session): void {
  tiers
    .command('list')
    .description('the tiers, highest rank first, with their features')
    .action(async () => {
      const { listTiers } = require('../../core/catalog') as typeof import('../../core/catalog');
      const found = await listTiers(session.core().sequelize);
      session.emit({ tiers: found }, ({ tiers: rows }: { tiers: Tier[] }) => tiersTable(rows));
    });
}
