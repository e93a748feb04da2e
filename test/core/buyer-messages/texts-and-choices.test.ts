import { isAppError } from '../../../src/core/errors';
import {
  changeMessageChoices,
  messageChoices,
  messageText,
  type BuyerMessage,
} from '../../../src/core/buyer-messages';
import { useTestCore } from '../../support/context';
import { createUser } from '../../support/fixtures';

const core = useTestCore();

const receipt: BuyerMessage = {
  kind: 'receipt',
  to: '123456789012345678',
  buyer: 'asha',
  plan: { tier: 'pro', planType: 'Yearly', durationDays: 365 },
  amountPaise: 199_900,
  reference: 'order_Text0000000001',
};

describe("a buyer message's text", () => {
  it('reads well by default, with the amount in rupees and the store link', () => {
    expect(messageText(receipt, {}, 'https://shop.example/store')).toBe(
      'Thank you, asha! We received ₹1,999.00 for pro Yearly (365 days) (order_Text0000000001). Your invoice is in the store: https://shop.example/store/dashboard',
    );
  });

  it("is the seller's when set, its placeholders filled and others left as typed", () => {
    const texts = { RECEIPT: '{buyer}: {amount}, {plan}. {invoiceUrl} {unknown}', REFUND: 'not this one' };
    expect(messageText(receipt, texts, 'https://s.example/store')).toBe(
      'asha: ₹1,999.00, pro Yearly (365 days). https://s.example/store/dashboard {unknown}',
    );
  });
});

describe("the buyer's choices", () => {
  it('turn refunds off and on, keep receipts on, and change nothing on a refusal', async () => {
    const user = await createUser();
    expect(await messageChoices(core().sequelize, user.id)).toEqual({
      receipt: true,
      refund: true,
      renewal_upcoming: true,
      charge_failed: true,
    });

    const refusal = await changeMessageChoices(core().sequelize, user.id, {
      refund: false,
      receipt: false,
    }).catch((error: unknown) => error);
    expect(isAppError(refusal) && refusal.code).toBe('REQUIRED_MESSAGE');
    // Pre-debit notices stay on too (the RBI's e-mandate rules).
    const notice = await changeMessageChoices(core().sequelize, user.id, { renewal_upcoming: false }).catch(
      (error: unknown) => error,
    );
    expect(isAppError(notice) && notice.code).toBe('REQUIRED_MESSAGE');
    expect(await messageChoices(core().sequelize, user.id)).toEqual({
      receipt: true,
      refund: true,
      renewal_upcoming: true,
      charge_failed: true,
    });

    expect(await changeMessageChoices(core().sequelize, user.id, { refund: false })).toEqual({
      receipt: true,
      refund: false,
      renewal_upcoming: true,
      charge_failed: true,
    });
    expect(await changeMessageChoices(core().sequelize, user.id, { refund: false, receipt: true })).toEqual({
      receipt: true,
      refund: false,
      renewal_upcoming: true,
      charge_failed: true,
    });
    expect(await changeMessageChoices(core().sequelize, user.id, { refund: true })).toEqual({
      receipt: true,
      refund: true,
      renewal_upcoming: true,
      charge_failed: true,
    });
  });
});
