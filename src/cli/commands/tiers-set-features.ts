import type { Command } from 'commander';
import type { Features, FeatureValue, Tier } from '../../core/catalog/types';
import { featureKey, features, many } from '../arguments';
import { featuresLabel } from '../catalog-render';
import { EXIT_USAGE } from '../errors';
import type { Session } from '../session';

interface SetFeaturesOptions {
  feature?: Features;
  remove?: string[];
}

interface FeaturesChange {
  before: Tier;
  after: Tier;
}

function render({ before, after }: FeaturesChange): string {
  return [
    `Tier ${after.code} (${after.name}):`,
    `  before: ${featuresLabel(before.features)}`,
    `  after:  ${featuresLabel(after.features)}`,
    'GET /api/plans shows them now.',
  ].join('\n');
}

export function registerTiersSetFeatures(tiers: Command, session: Session): void {
  tiers
    .command('set-features')
    .description('set or remove features of a tier; the others stay as they are')
    .argument('<code>', 'the tier (premium tiers list)')
    .option(
      '--feature <key=value>',
      'set a feature, repeated for more: the value a number, true/false, else a text',
      features,
    )
    .option('--remove <key...>', 'remove these features', many(featureKey))
    .action(async (code: string, options: SetFeaturesOptions, command: Command) => {
      const set = options.feature ?? {};
      const remove = options.remove ?? [];
      if (Object.keys(set).length === 0 && remove.length === 0) {
        command.error('error: give --feature key=value or --remove key', { exitCode: EXIT_USAGE });
      }
      const both = remove.filter((key) => key in set);
      if (both.length > 0) {
        command.error(
          `error: ${both.map((key) => `"${key}"`).join(', ')} both set and removed: give each once`,
          {
            exitCode: EXIT_USAGE,
          },
        );
      }
      const { listTiers, setTierFeatures, unknownTier } =
        require('../../core/catalog') as typeof import('../../core/catalog');
      const { sequelize } = session.core();
      const before = (await listTiers(sequelize)).find((tier) => tier.code === code);
      if (!before) throw unknownTier(code);
      const changes: Record<string, FeatureValue | null> = {
        ...set,
        ...Object.fromEntries(remove.map((key) => [key, null])),
      };
      const after = await setTierFeatures(sequelize, code, changes);
      session.emit({ before, after }, render);
    });
}
