import type { Command } from 'commander';
import { positiveInteger, snowflake } from '../arguments';
import { time } from '../format';
import { actorOption, reasonOption } from '../options';
import type { Session } from '../session';

interface BindOptions {
  reason: string;
  actor: string;
}

interface BindAnswer {
  bundleId: number;
  guildId: string;
  boundAt: Date;
  days: number;
  expiresAt: Date;
  grantId: number;
}

function render(bound: BindAnswer): string {
  return [
    `Bound guild ${bound.guildId} to bundle #${bound.bundleId}: ${bound.days} days of its tier added; the guild now ends ${time(bound.expiresAt)}.`,
    `Ledger #${bound.grantId}; the bot is told.`,
  ].join('\n');
}

export function registerBundlesBind(bundles: Command, session: Session): void {
  bundles
    .command('bind')
    .description('bind a free slot of a bundle to a guild, for the buyer (no manager check); the bot is told')
    .argument('<bundleId>', 'the bundle (`premium bundles list --user <id>`)', positiveInteger)
    .argument('<guildId>', 'the guild', snowflake)
    .addOption(reasonOption())
    .addOption(actorOption())
    .action(async (bundleId: number, guildId: string, options: BindOptions) => {
      const { bindSlot } = require('../../core/bundles') as typeof import('../../core/bundles');
      const binding = await bindSlot(session.core().sequelize, {
        bundleId,
        guildId,
        by: { kind: 'operator', actor: options.actor },
        reason: options.reason,
      });
      session.emit(
        {
          bundleId: binding.bundleId,
          guildId: binding.guildId,
          boundAt: binding.boundAt,
          days: binding.change.days,
          expiresAt: binding.change.expiresAt,
          grantId: binding.change.grantId,
        },
        render,
      );
    });
}
