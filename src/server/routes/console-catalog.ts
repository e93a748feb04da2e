import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  addPlan,
  addTier,
  changeTier,
  archivePlan,
  listPlans,
  listTiers,
  parseFeature,
  renamePlan,
  restorePlan,
  PLAN_SCOPES,
  setPlanPrice,
  setTierFeatures,
  type CatalogPlan,
  type FeatureValue,
} from '../../core/catalog';
import { AppError } from '../../core/errors';
import { razorpayClientFor } from '../../core/payments/processor';
import { DEFAULT_TIER } from '../../core/plans';
import type { AppOptions } from '../app-options';

const hide = true;

/** `key=value` lines, read by the catalog's `parseFeature`, as the CLI's `--feature` is. */
const FeatureLines = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), { maxItems: 100 });
/** INR, whole paise of at least ₹1: the catalog refuses anything else (INVALID_PRICE), never rounding. */
const Price = Type.Union([Type.Number(), Type.String({ minLength: 1, maxLength: 16 })]);
const Code = Type.String({ minLength: 1, maxLength: 32 });
const CodeParams = Type.Object({ code: Code });

const AddTierBody = Type.Object(
  {
    code: Code,
    name: Type.String({ minLength: 1, maxLength: 64 }),
    rank: Type.Integer({ minimum: 0 }),
    features: Type.Optional(FeatureLines),
  },
  { additionalProperties: false },
);

const SetFeaturesBody = Type.Object(
  {
    set: Type.Optional(FeatureLines),
    remove: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

const AddPlanBody = Type.Object(
  {
    code: Code,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    tier: Type.Optional(Code),
    scope: Type.Union(PLAN_SCOPES.map((scope) => Type.Literal(scope))),
    days: Type.Integer(),
    price: Price,
    slots: Type.Optional(Type.Integer()),
    renews: Type.Optional(Type.Boolean()),
    trialDays: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

const SetPriceBody = Type.Object({ price: Price }, { additionalProperties: false });

const Name = Type.String({ minLength: 1, maxLength: 64 });
/** A tier's name, its rank, or both. */
const ChangeTierBody = Type.Object(
  { name: Type.Optional(Name), rank: Type.Optional(Type.Integer({ minimum: 0 })) },
  { additionalProperties: false, minProperties: 1 },
);
const RenamePlanBody = Type.Object({ name: Name }, { additionalProperties: false });

/** `key=value` lines as features, a malformed one refused with the catalog's INVALID_FEATURE. */
function featuresOf(lines: string[] = []): Record<string, FeatureValue> {
  return Object.fromEntries(lines.map((line) => parseFeature(line.trim())));
}

/** A plan as the console shows it: the row, and its price in INR beside paise (as the CLI's --json). */
const shown = (plan: CatalogPlan) => ({ ...plan, price: plan.pricePaise / 100 });

/**
 * The catalog in the console: the tiers with their features and every plan (archived ones too), and the
 * changes the CLI's `premium tiers …` and `premium plans …` make, through the same catalog functions.
 * Behind the console's guard (cookie and X-Console-Request) like every console route; each change is
 * logged with the operator, as it changes no premium and writes no ledger row.
 */
const consoleCatalogRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  const { sequelize } = core;
  const processor = razorpayClientFor(core.config);

  app.get('/api/console/catalog', { schema: { hide } }, async () => {
    const [tiers, plans] = await Promise.all([
      listTiers(sequelize),
      listPlans(sequelize, { includeArchived: true }),
    ]);
    return { defaultTier: DEFAULT_TIER, tiers, plans: plans.map(shown) };
  });

  app.post('/api/console/catalog/tiers', { schema: { hide, body: AddTierBody } }, async (request) => {
    const { features, ...tier } = request.body;
    const added = await addTier(sequelize, { ...tier, features: featuresOf(features) });
    request.log.info({ tier: added.code }, 'console adds a tier');
    return added;
  });

  app.post(
    '/api/console/catalog/tiers/:code/features',
    { schema: { hide, params: CodeParams, body: SetFeaturesBody } },
    async (request) => {
      const set = featuresOf(request.body.set);
      const remove = request.body.remove ?? [];
      const both = remove.filter((key) => key in set);
      if (both.length > 0) {
        throw AppError.validation(
          'FEATURE_SET_AND_REMOVED',
          `${both.join(', ')}: both set and removed; give each once`,
        );
      }
      const changes = { ...set, ...Object.fromEntries(remove.map((key) => [key, null])) };
      const tier = await setTierFeatures(sequelize, request.params.code, changes);
      request.log.info({ tier: tier.code, changes }, 'console sets features of a tier');
      return tier;
    },
  );

  app.post(
    '/api/console/catalog/tiers/:code',
    { schema: { hide, params: CodeParams, body: ChangeTierBody } },
    async (request) => {
      const tier = await changeTier(sequelize, request.params.code, request.body);
      request.log.info({ tier: tier.code, change: request.body }, 'console changes a tier');
      return tier;
    },
  );

  app.post('/api/console/catalog/plans', { schema: { hide, body: AddPlanBody } }, async (request) => {
    const plan = await addPlan(sequelize, processor, {
      ...request.body,
      tier: request.body.tier ?? DEFAULT_TIER,
    });
    request.log.info({ plan: plan.code }, 'console adds a plan');
    return shown(plan);
  });

  app.post(
    '/api/console/catalog/plans/:code/price',
    { schema: { hide, params: CodeParams, body: SetPriceBody } },
    async (request) => {
      const { before, after } = await setPlanPrice(
        sequelize,
        processor,
        request.params.code,
        request.body.price,
      );
      request.log.info(
        { plan: after.code, beforePaise: before.pricePaise, afterPaise: after.pricePaise },
        'console sets the price of a plan',
      );
      return { before: shown(before), after: shown(after) };
    },
  );

  app.post(
    '/api/console/catalog/plans/:code/archive',
    { schema: { hide, params: CodeParams } },
    async (request) => {
      const plan = await archivePlan(sequelize, request.params.code);
      request.log.info({ plan: plan.code }, 'console archives a plan');
      return shown(plan);
    },
  );

  app.post(
    '/api/console/catalog/plans/:code/restore',
    { schema: { hide, params: CodeParams } },
    async (request) => {
      const plan = await restorePlan(sequelize, request.params.code);
      request.log.info({ plan: plan.code }, 'console puts an archived plan back on sale');
      return shown(plan);
    },
  );

  app.post(
    '/api/console/catalog/plans/:code/name',
    { schema: { hide, params: CodeParams, body: RenamePlanBody } },
    async (request) => {
      const plan = await renamePlan(sequelize, request.params.code, request.body.name);
      request.log.info({ plan: plan.code, name: plan.name }, 'console renames a plan');
      return shown(plan);
    },
  );
};

export default consoleCatalogRoutes;
