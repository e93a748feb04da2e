import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** A guild the user may manage (owner, MANAGE_GUILD or ADMINISTRATOR), refreshed at each sign-in. */
export class UserGuild extends Model<InferAttributes<UserGuild>, InferCreationAttributes<UserGuild>> {
  declare userId: number;
  declare guildId: string;
  declare name: string;
  declare icon: string | null;
  declare owner: boolean;
  declare permissions: string;
  declare refreshedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    UserGuild.init(
      {
        userId: { type: DataTypes.BIGINT, primaryKey: true },
        guildId: { type: DataTypes.TEXT, primaryKey: true },
        name: { type: DataTypes.TEXT, allowNull: false },
        icon: { type: DataTypes.TEXT },
        owner: { type: DataTypes.BOOLEAN, allowNull: false },
        permissions: { type: DataTypes.TEXT, allowNull: false },
        refreshedAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'user_guilds', underscored: true, timestamps: false },
    );
  }
}
