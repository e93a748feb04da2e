import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Sequelize,
} from 'sequelize';
import type { Category } from '../premium/types';
import type { SubscriptionStatus } from './subscription-status';

export { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription-status';

/** A subscription in one of these holds its target: a second one for the same target is refused. */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = [
  'created',
  'authenticated',
  'active',
  'pending',
  'halted',
  'paused',
];

/** One Razorpay subscription: who bought it, for which target, on which plan, and where it stands. */
export class Subscription extends Model<
  InferAttributes<Subscription>,
  InferCreationAttributes<Subscription>
> {
  declare id: CreationOptional<number>;
  declare processorSubscriptionId: string;
  declare processorPlanId: string;
  declare buyerUserId: number;
  declare category: Category;
  declare guildId: string | null;
  declare targetKey: string;
  declare planType: string;
  declare durationDays: number;
  /** The tier each charge grants, as the catalog said when it was created. */
  declare tier: CreationOptional<string>;
  declare amountPaise: number;
  /** More than 1: a bundle plan's subscription, whose charges make and extend a bundle (docs/bundles.md). */
  declare slots: CreationOptional<number>;
  /** Days free before the first charge, as asked of Razorpay (`start_at`); 0: no trial. */
  declare trialDays: CreationOptional<number>;
  declare status: CreationOptional<SubscriptionStatus>;
  declare cancelAtCycleEnd: CreationOptional<boolean>;
  declare startAt: Date | null;
  declare currentStart: CreationOptional<Date | null>;
  declare currentEnd: CreationOptional<Date | null>;
  declare chargeAt: CreationOptional<Date | null>;
  declare paidCount: CreationOptional<number>;
  declare shortUrl: string | null;
  declare authorizedPaymentId: CreationOptional<string | null>;
  /** When the processor's view stored here was seen: its webhook event's `created_at`, or the fetch. */
  declare stateEventAt: CreationOptional<Date | null>;
  /** The buyer's GST state code (`29`), GSTIN and name for the invoice; null: the seller's state. */
  declare billingStateCode: CreationOptional<string | null>;
  declare billingGstin: CreationOptional<string | null>;
  declare billingName: CreationOptional<string | null>;
  declare billingAddress: CreationOptional<string | null>;
  declare billingPincode: CreationOptional<string | null>;
  declare billingCountry: CreationOptional<string | null>;
  /**
   * A plan switched to on a card (docs/subscriptions.md, "Changing plan"): what the next charge pays for
   * and grants; null when none is pending.
   */
  declare pendingPlanType: CreationOptional<string | null>;
  declare pendingTier: CreationOptional<string | null>;
  declare pendingDurationDays: CreationOptional<number | null>;
  declare pendingAmountPaise: CreationOptional<number | null>;
  declare pendingProcessorPlanId: CreationOptional<string | null>;
  /** A UPI switch: the new mandate's subscription that takes over at this one's cycle end. */
  declare replacedBy: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  static initModel(sequelize: Sequelize): void {
    Subscription.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
        processorSubscriptionId: { type: DataTypes.TEXT, allowNull: false, unique: true },
        processorPlanId: { type: DataTypes.TEXT, allowNull: false },
        buyerUserId: { type: DataTypes.BIGINT, allowNull: false },
        category: { type: DataTypes.TEXT, allowNull: false },
        guildId: { type: DataTypes.TEXT },
        targetKey: { type: DataTypes.TEXT, allowNull: false },
        planType: { type: DataTypes.TEXT, allowNull: false },
        tier: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'premium' },
        durationDays: { type: DataTypes.INTEGER, allowNull: false },
        amountPaise: { type: DataTypes.INTEGER, allowNull: false },
        slots: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        trialDays: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'created' },
        cancelAtCycleEnd: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        startAt: { type: DataTypes.DATE },
        currentStart: { type: DataTypes.DATE },
        currentEnd: { type: DataTypes.DATE },
        chargeAt: { type: DataTypes.DATE },
        paidCount: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        shortUrl: { type: DataTypes.TEXT },
        authorizedPaymentId: { type: DataTypes.TEXT },
        stateEventAt: { type: DataTypes.DATE },
        billingStateCode: { type: DataTypes.TEXT },
        billingGstin: { type: DataTypes.TEXT },
        billingName: { type: DataTypes.TEXT },
        billingAddress: { type: DataTypes.TEXT },
        billingPincode: { type: DataTypes.TEXT },
        billingCountry: { type: DataTypes.TEXT },
        pendingPlanType: { type: DataTypes.TEXT },
        pendingTier: { type: DataTypes.TEXT },
        pendingDurationDays: { type: DataTypes.INTEGER },
        pendingAmountPaise: { type: DataTypes.INTEGER },
        pendingProcessorPlanId: { type: DataTypes.TEXT },
        replacedBy: { type: DataTypes.TEXT },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, tableName: 'subscriptions', underscored: true },
    );
  }
}
