import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare providerId: string;
  declare username: string;
  /** Discord's display name, when the account has one (as of the last sign-in). */
  declare globalName: CreationOptional<string | null>;
  declare avatar: string | null;
  declare premiumExpiresAt: CreationOptional<Date | null>;
  declare lastLoginAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    User.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        providerId: { type: DataTypes.TEXT, allowNull: false, unique: true },
        username: { type: DataTypes.TEXT, allowNull: false },
        globalName: { type: DataTypes.TEXT },
        avatar: { type: DataTypes.TEXT },
        premiumExpiresAt: { type: DataTypes.DATE },
        lastLoginAt: { type: DataTypes.DATE },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'users', underscored: true },
    );
  }
}
