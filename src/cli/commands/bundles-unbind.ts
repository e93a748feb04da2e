import type { Command } from 'commander';
import { positiveInteger, snowflake } from '../arguments';
import { confirm } from '../confirm';
import { time } from '../format';
import { actorOption, reasonOption } from '../options';
import type { Session } from '../session';

interface UnbindOptions {
  reason: string;
  actor: string;
  yes?: boolean;
}

interface UnbindAnswer {
  bundleId: number;
  guildId: string;
  days: number;
  expiresAt: Date | null;
  grantId: number | null;
}

function render(unbound: UnbindAnswer): string {
  const taken =
    unbound.expiresAt === null
      ? 'nothing was left of its days to take'
      : `${unbound.days} days taken back; the guild now ends ${time(unbound.expiresAt)} (ledger #${unbound.grantId})`;
  return `Unbound guild ${unbound.guildId} from bundle #${unbound.bundleId}: ${taken}. The slot is free.`;
}

export function registerBundlesUnbind(bundles: Command, session: Session): void {
  bundles
    .command('unbind')
    .description("unbind a guild from a bundle: the rest of the bundle's days are taken back, the slot freed")
    .argument('<bundleId>', 'the bundle (`premium bundles list --user <id>`)', positiveInteger)
    .argument('<guildId>', 'the bound guild', snowflake)
    .addOption(reasonOption())
    .addOption(actorOption())
    .option('--yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action(async (bundleId: number, guildId: string, options: UnbindOptions) => {
      const { unbindSlot } = require('../../core/bundles') as typeof import('../../core/bundles');
      await confirm(
        `Unbind guild ${guildId} from bundle #${bundleId}, taking back the rest of the bundle's days there? The bot is told at once.`,
        options.yes,
      );
      const unbound = await unbindSlot(session.core().sequelize, {
        bundleId,
        guildId,
        by: { kind: 'operator', actor: options.actor },
        reason: options.reason,
      });
      session.emit(
        {
          bundleId: unbound.bundleId,
          guildId: unbound.guildId,
          days: Math.abs(unbound.change?.days ?? 0),
          expiresAt: unbound.change?.expiresAt ?? null,
          grantId: unbound.change?.grantId ?? null,
        },
        render,
      );
    });
}
