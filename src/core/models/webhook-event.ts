import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';

/** A processed Razorpay webhook, by its `x-razorpay-event-id`: a replay is acknowledged and ignored. */
export class WebhookEvent extends Model<
  InferAttributes<WebhookEvent>,
  InferCreationAttributes<WebhookEvent>
> {
  declare eventId: string;
  declare eventType: string;
  declare receivedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    WebhookEvent.init(
      {
        eventId: { type: DataTypes.TEXT, primaryKey: true },
        eventType: { type: DataTypes.TEXT, allowNull: false },
        receivedAt: { type: DataTypes.DATE, defaultValue: DataTypes.NOW },
      },
      { sequelize, tableName: 'webhook_events', underscored: true, timestamps: false },
    );
  }
}
