import { Type } from '@sinclair/typebox';
import { DEFAULT_CATEGORY } from '../core/orders/create-order';
import { CATEGORIES } from '../core/premium/types';
import { PROVIDER_ID_PATTERN } from '../core/users';

export const ProviderId = Type.String({
  pattern: PROVIDER_ID_PATTERN,
  description: 'Discord user id (snowflake)',
});

export const GuildId = Type.String({ pattern: PROVIDER_ID_PATTERN, description: 'Discord guild id' });

/** A catalog plan's code (GET /api/plans), or Custom. */
export const PlanCode = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$',
  description: 'a plan code from GET /api/plans',
});

/** Who a purchase or a gift code is for: the caller (USER) or a guild they manage (SERVER, the default). */
/** `upgrade` of quote and create-order (docs/payments.md, "The upgrade kind"). */
export const UpgradeField = {
  upgrade: Type.Optional(
    Type.Object(
      {
        fromTier: Type.String({
          pattern: '^[a-z0-9][a-z0-9-]{0,31}$',
          description: 'the tier whose days you hold',
        }),
        toPlan: PlanCode,
      },
      {
        description:
          "turn every day of `fromTier` you hold on the target into `toPlan`'s tier, for the difference of their daily prices",
      },
    ),
  ),
};

export const TargetFields = {
  category: Type.Optional(
    Type.Union(
      CATEGORIES.map((category) => Type.Literal(category)),
      { default: DEFAULT_CATEGORY },
    ),
  ),
  guildId: Type.Optional(
    Type.Union([
      Type.String({ pattern: PROVIDER_ID_PATTERN, description: 'Discord guild id; required for SERVER' }),
      Type.Null(),
    ]),
  ),
};

const optionalText = (maxLength: number, description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength, description }), Type.Null()]));

/**
 * The buyer's billing for the invoice (docs/invoices.md); checked by the core, which answers 400
 * STATE_REQUIRED, INVALID_STATE, INVALID_GSTIN, INVALID_PINCODE, INVALID_COUNTRY, ADDRESS_REQUIRED or
 * INVALID_BILLING, so the schema only bounds the lengths.
 */
export const BillingFields = {
  billing: Type.Optional(
    Type.Object(
      {
        stateCode: optionalText(
          8,
          'the two-digit GST state code, "29" for Karnataka; required when the seller issues tax invoices, unless gstin or country is given',
        ),
        gstin: optionalText(20, "a registered buyer's GSTIN; its first two digits are the state"),
        name: optionalText(200, 'the name the invoice is made out to; your Discord name when absent'),
        address: optionalText(300, "the buyer's address, one line; required with gstin"),
        pincode: optionalText(10, "the address's six-digit PIN code"),
        country: optionalText(
          4,
          'a buyer outside India: ISO 3166 alpha-2 (US, DE), instead of stateCode; an export of services',
        ),
      },
      { additionalProperties: false },
    ),
  ),
};

export const ErrorReply = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Unknown()),
    }),
  },
  { $id: 'ErrorReply' },
);

/**
 * The `response` entries of a route's error answers: every status listed answers in the one error shape
 * the error handler (src/server/errors.ts) sends.
 */
export function errorReplies<Status extends number>(...statuses: Status[]) {
  const replies = {} as Record<Status, { $ref: string }>;
  for (const status of statuses) replies[status] = { $ref: 'ErrorReply#' };
  return replies;
}

export const PremiumStatusReply = Type.Object({
  isPremium: Type.Boolean(),
  premiumExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** A tier's features, as the catalog holds them: any JSON object. */
export const TierFeatures = Type.Record(Type.String(), Type.Unknown(), {
  description: "the tier's features from the catalog; {} when no tier runs",
});

/** The running tier of a record or a user: its code, null when not premium. */
export const RunningTier = Type.Union([Type.String(), Type.Null()], {
  description: 'the tier running now (the highest one with days left); null when not premium',
});

/** The status route's answer: the live status with its tiers (docs/money-rules.md, "Tiers"). */
/** Tiers' own days, in the order they run: `startsAt` to `expiresAt` each. */
export function TierDaysList(description: string) {
  return Type.Array(
    Type.Object({
      tier: Type.String(),
      startsAt: Type.String({
        format: 'date-time',
        description:
          'when its days start running: now for the tier running, the end of the one before for the others',
      }),
      expiresAt: Type.String({ format: 'date-time' }),
    }),
    { description },
  );
}

export const TieredPremiumStatusReply = Type.Object({
  ...PremiumStatusReply.properties,
  tier: RunningTier,
  features: TierFeatures,
  tiers: TierDaysList(
    "the tiers with days left, in the order they run (highest first): the first runs now, each of the others from the end of the one before it; a server's days its buyer holds count in",
  ),
});

/** A redirect answer: no body; the browser goes to `Location`. */
export function Redirect(description: string) {
  return Type.Null({
    description,
    headers: { Location: Type.String({ format: 'uri', description: 'where the browser goes next' }) },
  });
}
