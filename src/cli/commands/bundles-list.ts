import type { Command } from 'commander';
import type { BundleView } from '../../core/bundles';
import { snowflake } from '../arguments';
import { time } from '../format';
import type { Session } from '../session';

const ENDS: Record<BundleView['status'], string> = {
  active: 'ends',
  ended: 'ended',
  revoked: 'ended (refunded or charged back)',
};

function render({ user, bundles }: { user: string; bundles: BundleView[] }): string {
  if (bundles.length === 0) return `User ${user} has no bundles.`;
  return bundles
    .map((bundle) => {
      const head = `Bundle #${bundle.bundleId}: ${bundle.plan} (${bundle.tier}), ${bundle.guilds.length} of ${bundle.slots} slots bound, ${ENDS[bundle.status]} ${time(new Date(bundle.endsAt))}`;
      const guilds = bundle.guilds.map(
        (guild) =>
          `  guild ${guild.guildId}, bound ${time(new Date(guild.boundAt))}${guild.state === 'held' ? ', held: its revoke waits for `premium revokes release`' : ''}`,
      );
      return [head, ...guilds].join('\n');
    })
    .join('\n');
}

export function registerBundlesList(bundles: Command, session: Session): void {
  bundles
    .command('list')
    .description("a user's bundles, newest first, with the guilds bound to their slots")
    .requiredOption('--user <id>', "the buyer's Discord id", snowflake)
    .action(async (options: { user: string }) => {
      const { listBundles } = require('../../core/bundles') as typeof import('../../core/bundles');
      const found = await listBundles(session.core().sequelize, options.user);
      session.emit({ user: options.user, bundles: found }, render);
    });
}
