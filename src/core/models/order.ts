import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { Category } from '../premium/types';
import type { PlanType } from '../plans';

export type OrderStatus = 'created' | 'paid' | 'refunded' | 'disputed';
export type DisputeStatus = 'open' | 'under_review' | 'won' | 'lost' | 'closed';

export class Order extends Model<InferAttributes<Order>, InferCreationAttributes<Order>> {
  declare id: CreationOptional<number>;
  declare processorOrderId: string;
  declare receipt: string;
  declare buyerUserId: number;
  declare category: Category;
  declare guildId: string | null;
  declare planType: PlanType;
  declare months: number | null;
  declare durationDays: number;
  /** The tier of its days, as the catalog said when it was created. */
  declare tier: CreationOptional<string>;
  /** Servers it covers: 1, or a bundle's slots. */
  declare slots: CreationOptional<number>;
  declare amountPaise: number;
  /** The plan's price before any offer (null on orders from before offers: the amount was it). */
  declare listPricePaise: CreationOptional<number | null>;
  declare discountPaise: CreationOptional<number>;
  declare offerId: CreationOptional<number | null>;
  declare currency: CreationOptional<string>;
  declare status: CreationOptional<OrderStatus>;
  declare paymentId: CreationOptional<string | null>;
  declare paidAt: CreationOptional<Date | null>;
  declare refundedAt: CreationOptional<Date | null>;
  /** When the reconciler next asks the processor about this unpaid order; null once it stopped. */
  declare nextCheckAt: CreationOptional<Date | null>;
  declare checksMade: CreationOptional<number>;
  /** Payments refunded in full while the order was unpaid: none of them may pay it. */
  declare refundedPaymentIds: CreationOptional<string[]>;
  declare disputeId: CreationOptional<string | null>;
  declare disputeStatus: CreationOptional<DisputeStatus | null>;
  /** The grant a won dispute gave back, which a later refund or dispute takes. */
  declare restoreGrantId: CreationOptional<number | null>;
  /** The last declined attempt to pay the order (`payment.failed`), its bank's reason and when. */
  declare failedPaymentId: CreationOptional<string | null>;
  declare paymentFailure: CreationOptional<string | null>;
  declare paymentFailedAt: CreationOptional<Date | null>;
  /** Why its payment was refused and refunded rather than granted (`OFFER_HOLD_EXPIRED`); null: it was not. */
  declare refusedCode: CreationOptional<string | null>;
  /** The buyer's GST state code (`29`), GSTIN and name for the invoice; null: the seller's state. */
  declare billingStateCode: CreationOptional<string | null>;
  declare billingGstin: CreationOptional<string | null>;
  declare billingName: CreationOptional<string | null>;
  declare billingAddress: CreationOptional<string | null>;
  declare billingPincode: CreationOptional<string | null>;
  declare billingCountry: CreationOptional<string | null>;
  /** An upgrade's order (docs/payments.md): the tier whose days its payment turns into `tier`'s; else null. */
  declare upgradeFromTier: CreationOptional<string | null>;
  /** A subscription switch's upgrade (docs/subscriptions.md): the subscription whose cycle's days it converts. */
  declare upgradeSubscriptionId: CreationOptional<string | null>;
  /** A gift's order (docs/codes.md): its payment makes a gift code of its plan, granting nobody. */
  declare gift: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Order.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        processorOrderId: { type: DataTypes.TEXT, allowNull: false, unique: true },
        receipt: { type: DataTypes.TEXT, allowNull: false, unique: true },
        buyerUserId: { type: DataTypes.BIGINT, allowNull: false },
        category: { type: DataTypes.TEXT, allowNull: false },
        guildId: { type: DataTypes.TEXT },
        planType: { type: DataTypes.TEXT, allowNull: false },
        months: { type: DataTypes.INTEGER },
        durationDays: { type: DataTypes.INTEGER, allowNull: false },
        tier: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'premium' },
        slots: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        amountPaise: { type: DataTypes.INTEGER, allowNull: false },
        listPricePaise: { type: DataTypes.INTEGER },
        discountPaise: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        offerId: { type: DataTypes.BIGINT },
        currency: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'INR' },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'created' },
        paymentId: { type: DataTypes.TEXT, unique: true },
        paidAt: { type: DataTypes.DATE },
        refundedAt: { type: DataTypes.DATE },
        nextCheckAt: { type: DataTypes.DATE },
        checksMade: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        refundedPaymentIds: { type: DataTypes.ARRAY(DataTypes.TEXT), allowNull: false, defaultValue: [] },
        disputeId: { type: DataTypes.TEXT },
        disputeStatus: { type: DataTypes.TEXT },
        restoreGrantId: { type: DataTypes.BIGINT },
        failedPaymentId: { type: DataTypes.TEXT },
        paymentFailure: { type: DataTypes.TEXT },
        paymentFailedAt: { type: DataTypes.DATE },
        refusedCode: { type: DataTypes.TEXT },
        billingStateCode: { type: DataTypes.TEXT },
        billingGstin: { type: DataTypes.TEXT },
        billingName: { type: DataTypes.TEXT },
        billingAddress: { type: DataTypes.TEXT },
        billingPincode: { type: DataTypes.TEXT },
        billingCountry: { type: DataTypes.TEXT },
        upgradeFromTier: { type: DataTypes.TEXT },
        upgradeSubscriptionId: { type: DataTypes.TEXT },
        gift: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'orders', underscored: true },
    );
  }
}
