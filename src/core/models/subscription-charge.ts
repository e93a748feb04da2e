import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { DisputeStatus } from './order';

/** One captured payment of a subscription (a cycle paid for), and the grant it made. */
export class SubscriptionCharge extends Model<
  InferAttributes<SubscriptionCharge>,
  InferCreationAttributes<SubscriptionCharge>
> {
  declare id: CreationOptional<number>;
  declare subscriptionId: number;
  declare paymentId: string;
  declare invoiceId: string | null;
  declare amountPaise: number;
  declare currency: string;
  declare cycleStart: Date | null;
  declare cycleEnd: Date | null;
  declare grantId: number | null;
  /** `disputed`: a chargeback took its cycle back; `refunded`: a refund or a lost dispute did. */
  declare status: CreationOptional<'charged' | 'disputed' | 'refunded'>;
  declare disputeId: CreationOptional<string | null>;
  declare disputeStatus: CreationOptional<DisputeStatus | null>;
  /** The grant a won dispute gave back, which a later refund or dispute takes. */
  declare restoreGrantId: CreationOptional<number | null>;
  declare source: 'checkout' | 'webhook' | 'reconcile';
  declare createdAt: CreationOptional<Date>;
  declare refundedAt: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize): void {
    SubscriptionCharge.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        subscriptionId: { type: DataTypes.BIGINT, allowNull: false },
        paymentId: { type: DataTypes.TEXT, allowNull: false, unique: true },
        invoiceId: { type: DataTypes.TEXT },
        amountPaise: { type: DataTypes.INTEGER, allowNull: false },
        currency: { type: DataTypes.TEXT, allowNull: false },
        cycleStart: { type: DataTypes.DATE },
        cycleEnd: { type: DataTypes.DATE },
        grantId: { type: DataTypes.BIGINT },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'charged' },
        disputeId: { type: DataTypes.TEXT },
        disputeStatus: { type: DataTypes.TEXT },
        restoreGrantId: { type: DataTypes.BIGINT },
        source: { type: DataTypes.TEXT, allowNull: false },
        createdAt: DataTypes.DATE,
        refundedAt: { type: DataTypes.DATE },
      },
      { sequelize, tableName: 'subscription_charges', underscored: true, updatedAt: false },
    );
  }
}
