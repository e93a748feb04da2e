import { QueryTypes, type ModelStatic, type Model } from 'sequelize';
import * as models from '../../../src/core/models';
import { useTestCore } from '../../support/context';

const getCore = useTestCore();

const MODELS: ModelStatic<Model>[] = [
  models.User,
  models.UserGuild,
  models.Order,
  models.UserPremium,
  models.ServerPremium,
  models.PremiumGrant,
  models.WebhookEvent,
  models.OutboxEvent,
  models.Subscription,
  models.SubscriptionCharge,
];

describe('the models', () => {
  it.each(MODELS.map((model) => [model.name, model] as const))(
    '%s names only columns its table has, NOT NULL where the model allows no null',
    async (_name, model) => {
      const columns = await getCore().sequelize.query<{ column_name: string; is_nullable: 'YES' | 'NO' }>(
        `SELECT column_name, is_nullable FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = $1`,
        { bind: [model.getTableName()], type: QueryTypes.SELECT },
      );
      const nullable = new Map(columns.map((column) => [column.column_name, column.is_nullable === 'YES']));
      const attributes = Object.values(model.getAttributes());
      expect(attributes.map((attribute) => attribute.field).filter((field) => !nullable.has(field!))).toEqual(
        [],
      );
      const notNullInModel = attributes.filter((attribute) => attribute.allowNull === false);
      expect(
        notNullInModel.map((attribute) => attribute.field).filter((field) => nullable.get(field!)),
      ).toEqual([]);
    },
  );
});
