import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { PremiumEventPayload, PremiumEventType } from '../premium/types';

/** An event not yet relayed to the Redis stream. The relay deletes it once XADD succeeded. */
export class OutboxEvent extends Model<InferAttributes<OutboxEvent>, InferCreationAttributes<OutboxEvent>> {
  declare id: CreationOptional<number>;
  declare eventId: string;
  declare type: PremiumEventType;
  declare aggregateKey: string;
  declare payload: PremiumEventPayload;
  declare createdAt: CreationOptional<Date>;
  declare attempts: CreationOptional<number>;
  declare availableAt: CreationOptional<Date>;
  declare lastError: CreationOptional<string | null>;
  declare deadAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize): void {
    OutboxEvent.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        eventId: { type: DataTypes.UUID, allowNull: false, unique: true },
        type: { type: DataTypes.TEXT, allowNull: false },
        aggregateKey: { type: DataTypes.TEXT, allowNull: false },
        payload: { type: DataTypes.JSONB, allowNull: false },
        createdAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        availableAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
        lastError: { type: DataTypes.TEXT },
        deadAt: { type: DataTypes.DATE },
      },
      { sequelize, tableName: 'outbox', underscored: true, updatedAt: false },
    );
  }
}
