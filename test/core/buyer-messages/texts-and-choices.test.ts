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

const NONE = { messages: {}, winbackOffer: null, storeName: 'Premium' };

describe("a buyer message's text", () => {
  it('reads well by default, with the amount in rupees and the store link', () => {
    expect(messageText(receipt, NONE, 'https://shop.example/store')).toBe(
      'Thank you, asha! We received ₹1,999.00 for pro Yearly (365 days) (order_Text0000000001). Your invoice is in the store: https://shop.example/store/dashboard',
    );
  });

  it("is the seller's when set, its placeholders filled and others left as typed", () => {
    const texts = { RECEIPT: '{buyer}: {amount}, {plan}. {invoiceUrl} {unknown}', REFUND: 'not this one' };
    expect(messageText(receipt, { ...NONE, messages: texts }, 'https://s.example/store')).toBe(
      'asha: ₹1,999.00, pro Yearly (365 days). https://s.example/store/dashboard {unknown}',
    );
  });

  it('links an expiry to the plans, and a lapse to the win-back offer when the seller names one', () => {
    const store = 'https://shop.example/store';
    const expiring = {
      ...receipt,
      kind: 'expiring' as const,
      reference: 'user',
      date: '2026-12-01 10:30 IST',
    };
    expect(messageText(expiring, NONE, store)).toBe(
      'Hi asha, your pro Yearly (365 days) ends on 2026-12-01 10:30 IST and does not renew by itself. To keep it, renew it in the store: https://shop.example/store/',
    );
    const lapsed = { ...receipt, kind: 'lapsed' as const, reference: 'user' };
    expect(messageText(lapsed, NONE, store)).toBe(
      'Hi asha, your pro Yearly (365 days) has ended. You are welcome back any time: https://shop.example/store/',
    );
    expect(messageText(lapsed, { ...NONE, winbackOffer: 'COMEBACK20' }, store)).toBe(
      'Hi asha, your pro Yearly (365 days) has ended. Come back with the code COMEBACK20 at checkout: https://shop.example/store/?offer=COMEBACK20',
    );
    // The offer is a lapsed message's only.
    expect(
      messageText(
        expiring,
        { ...NONE, messages: { EXPIRING: '{offer}|{link}' }, winbackOffer: 'COMEBACK20' },
        store,
      ),
    ).toBe('|https://shop.example/store/');
  });
});

const OTHERS_ON = { trial_ending: true, expiring: true, lapsed: true };

describe("the buyer's choices", () => {
  it('turn refunds off and on, keep receipts on, and change nothing on a refusal', async () => {
    const user = await createUser();
    expect(await messageChoices(core().sequelize, user.id)).toEqual({
      receipt: true,
      refund: true,
      renewal_upcoming: true,
      charge_failed: true,
      ...OTHERS_ON,
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
      ...OTHERS_ON,
    });

    expect(await changeMessageChoices(core().sequelize, user.id, { refund: false })).toEqual({
      receipt: true,
      refund: false,
      renewal_upcoming: true,
      charge_failed: true,
      ...OTHERS_ON,
    });
    expect(await changeMessageChoices(core().sequelize, user.id, { refund: false, receipt: true })).toEqual({
      receipt: true,
      refund: false,
      renewal_upcoming: true,
      charge_failed: true,
      ...OTHERS_ON,
    });
    expect(await changeMessageChoices(core().sequelize, user.id, { refund: true })).toEqual({
      receipt: true,
      refund: true,
      renewal_upcoming: true,
      charge_failed: true,
      ...OTHERS_ON,
    });
  });
});
