import { Option, type Command } from 'commander';
import type { Features, Tier } from '../../core/catalog/types';
import { features, text, wholeNumber } from '../arguments';
import { featuresLabel } from '../catalog-render';
import type { Session } from '../session';

interface AddOptions {
  name: string;
  rank: number;
  feature?: Features;
}

function render(tier: Tier): string {
  return [
    `Added tier ${tier.code} (${tier.name}), rank ${tier.rank}; features: ${featuresLabel(tier.features)}.`,
    `No plan sells it yet: premium plans add <code> --tier ${tier.code} --scope … --days … --price ….`,
  ].join('\n');
}

export function registerTiersAdd(tiers: Command, session: Session): void {
  tiers
    .command('add')
    .description('add a tier: what a plan sells, with the features the bot switches on')
    .argument('<code>', 'its code: 1 to 32 lowercase letters, digits and dashes (pro)')
    .addOption(new Option('--name <name>', 'what buyers read (Pro)').argParser(text).makeOptionMandatory())
    .addOption(
      new Option('--rank <n>', 'a whole number, unique; higher is more, and runs first')
        .argParser(wholeNumber)
        .makeOptionMandatory(),
    )
    .option(
      '--feature <key=value>',
      'a feature, repeated for more: the value a number, true/false, else a text (music=true, queue=500)',
      features,
    )
    .action(async (code: string, options: AddOptions) => {
      const { addTier } = require('../../core/catalog') as typeof import('../../core/catalog');
      const tier = await addTier(session.core().sequelize, {
        code,
        name: options.name,
        rank: options.rank,
        features: options.feature ?? {},
      });
      session.emit(tier, render);
    });
}
