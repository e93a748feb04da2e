import { ConfigError, loadConfig } from '../../../src/core/config';

describe('subscription settings', () => {
  it('reads RAZORPAY_PLAN_IDS and SUBSCRIPTION_GRACE_HOURS, with none and 72 hours by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' })).toMatchObject({
      razorpayPlanIds: {},
      subscriptionGraceHours: 72,
    });
    expect(
      loadConfig({
        NODE_ENV: 'test',
        RAZORPAY_PLAN_IDS: 'Monthly=plan_Abc123, Yearly=plan_Def456',
        SUBSCRIPTION_GRACE_HOURS: '24',
      }),
    ).toMatchObject({
      razorpayPlanIds: { Monthly: 'plan_Abc123', Yearly: 'plan_Def456' },
      subscriptionGraceHours: 24,
    });
    expect(loadConfig({ NODE_ENV: 'test', RAZORPAY_PLAN_IDS: 'Yearly=plan_Def456' }).razorpayPlanIds).toEqual(
      {
        Yearly: 'plan_Def456',
      },
    );
  });

  it('names both settings when they are wrong', () => {
    expect.assertions(2);
    try {
      loadConfig({ NODE_ENV: 'test', RAZORPAY_PLAN_IDS: 'Custom=plan_X', SUBSCRIPTION_GRACE_HOURS: '-1' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^RAZORPAY_PLAN_IDS: expected "Monthly=plan_…,Yearly=plan_…"/),
        expect.stringMatching(/^SUBSCRIPTION_GRACE_HOURS: /),
      ]);
    }
  });
});
