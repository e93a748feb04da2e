import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

const commonAttributes = {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  slots: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
  expiresAt: { type: DataTypes.DATE, allowNull: false },
  version: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
  createdAt: DataTypes.DATE,
  updatedAt: DataTypes.DATE,
};

/** The entitlement of one user: one row per user, `version` bumped on every change. */
export class UserPremium extends Model<InferAttributes<UserPremium>, InferCreationAttributes<UserPremium>> {
  declare id: CreationOptional<number>;
  declare userId: number;
  declare slots: CreationOptional<number>;
  declare expiresAt: Date;
  declare version: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    UserPremium.init(
      { ...commonAttributes, userId: { type: DataTypes.BIGINT, allowNull: false, unique: true } },
      { sequelize, tableName: 'user_premiums', underscored: true },
    );
  }
}

/** The entitlement of one guild: one row per guild, `version` bumped on every change. */
export class ServerPremium extends Model<
  InferAttributes<ServerPremium>,
  InferCreationAttributes<ServerPremium>
> {
  declare id: CreationOptional<number>;
  declare guildId: string;
  declare buyerUserId: number;
  declare slots: CreationOptional<number>;
  declare expiresAt: Date;
  declare version: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    ServerPremium.init(
      {
        ...commonAttributes,
        guildId: { type: DataTypes.TEXT, allowNull: false, unique: true },
        buyerUserId: { type: DataTypes.BIGINT, allowNull: false },
      },
      { sequelize, tableName: 'server_premiums', underscored: true },
    );
  }
}
