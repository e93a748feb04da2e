import { messageOf } from '../../../src/core/seller-notices';

describe('a seller notice’s message', () => {
  const buyer = { providerId: '80351110224678912', username: 'fan_*one*' };
  const purchase = {
    tier: 'premium',
    planType: 'Monthly',
    durationDays: 30,
    category: 'SERVER' as const,
    guildId: '90351110224678912',
  };

  it('tells a sale in rupees, with the buyer’s name as typed, and mentions no one', () => {
    const notice = {
      kind: 'sale',
      buyer,
      purchase,
      amountPaise: 19_900,
      orderId: '7',
      subscriptionId: null,
    } as const;
    expect(messageOf(notice)).toEqual({
      content:
        'Sale: **fan\\_\\*one\\*** (80351110224678912) paid ₹199.00 for premium Monthly (30 days) for server 90351110224678912, order 7',
      allowed_mentions: { parse: [] },
    });
  });

  it('says what Razorpay does next after a failed renewal', () => {
    const failed = {
      kind: 'renewal_failed',
      buyer,
      purchase: { ...purchase, category: 'USER', guildId: null },
      amountPaise: 19_900,
      subscriptionId: 'sub_1',
      status: 'halted',
    } as const;
    expect(messageOf(failed).content).toBe(
      "Renewal failed: **fan\\_\\*one\\*** (80351110224678912)'s ₹199.00 charge for premium Monthly (30 days) for their account, subscription sub_1 is halted (Razorpay stopped retrying)",
    );
  });
});
