import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { Category, GrantSource } from '../premium/types';

/** The ledger: one row per grant or revoke, never updated. */
export class PremiumGrant extends Model<
  InferAttributes<PremiumGrant>,
  InferCreationAttributes<PremiumGrant>
> {
  declare id: CreationOptional<number>;
  declare idempotencyKey: string;
  declare eventId: string;
  declare kind: 'grant' | 'revoke';
  declare category: Category;
  declare userId: number;
  declare guildId: string | null;
  declare planType: string | null;
  /** The tier whose days it moved (migration 027; the default tier before). */
  declare tier: CreationOptional<string>;
  declare days: number;
  declare expiresBefore: Date | null;
  declare expiresAfter: Date;
  declare source: GrantSource;
  declare actor: string;
  declare reason: string | null;
  declare orderId: number | null;
  declare revokesGrantId: number | null;
  declare version: number;
  declare createdAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    PremiumGrant.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        idempotencyKey: { type: DataTypes.TEXT, allowNull: false, unique: true },
        eventId: { type: DataTypes.UUID, allowNull: false, unique: true },
        kind: { type: DataTypes.TEXT, allowNull: false },
        category: { type: DataTypes.TEXT, allowNull: false },
        userId: { type: DataTypes.BIGINT, allowNull: false },
        guildId: { type: DataTypes.TEXT },
        planType: { type: DataTypes.TEXT },
        tier: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'premium' },
        days: { type: DataTypes.INTEGER, allowNull: false },
        expiresBefore: { type: DataTypes.DATE },
        expiresAfter: { type: DataTypes.DATE, allowNull: false },
        source: { type: DataTypes.TEXT, allowNull: false },
        actor: { type: DataTypes.TEXT, allowNull: false },
        reason: { type: DataTypes.TEXT },
        orderId: { type: DataTypes.BIGINT },
        revokesGrantId: { type: DataTypes.BIGINT },
        version: { type: DataTypes.INTEGER, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'premium_grants', underscored: true, updatedAt: false },
    );
  }
}
