import { Type } from '@sinclair/typebox';
import { PROVIDER_ID_PATTERN } from '../core/users';

export const ProviderId = Type.String({
  pattern: PROVIDER_ID_PATTERN,
  description: 'Discord user id (snowflake)',
});

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

export const PremiumStatusReply = Type.Object({
  isPremium: Type.Boolean(),
  premiumExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
