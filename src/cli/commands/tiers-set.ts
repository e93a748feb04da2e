import { Option, type Command } from 'commander';
import type { Tier, TierChange } from '../../core/catalog';
import { text, wholeNumber } from '../arguments';
import type { Session } from '../session';

function render(tier: Tier): string {
  return `Tier ${tier.code} is now ${tier.name}, rank ${tier.rank}; plans, grants and the bot keep its code.`;
}

export function registerTiersSet(tiers: Command, session: Session): void {
  tiers
    .command('set')
    .description('rename a tier, or re-rank one nobody holds days of yet; its code stays')
    .argument('<code>', 'the tier (premium tiers list)')
    .addOption(new Option('--name <name>', 'what buyers read from now on').argParser(text))
    .addOption(
      new Option('--rank <n>', 'a new rank, unique; refused while buyers hold days of the tier').argParser(
        wholeNumber,
      ),
    )
    .action(async (code: string, change: TierChange) => {
      const { changeTier } = require('../../core/catalog') as typeof import('../../core/catalog');
      session.emit(await changeTier(session.core().sequelize, code, change), render);
    });
}
