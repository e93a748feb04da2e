import { QueryTypes } from 'sequelize';
import type { User } from '../../../src/core/models';
import { createUser, snowflake } from '../../support/fixtures';
import { answer, consoleRequests } from '../../support/console-requests';
import {
  bearer,
  MONTHLY_USER,
  orderAs,
  usePaymentsApp,
  verifyAs,
  verifyBody,
} from '../../support/payments-app';

const OPERATOR = snowflake();
/** A seller registered in Karnataka (29), as the console's GST section sends it. */
const GST = {
  SELLER_NAME: 'Acme Bots Private Limited',
  SELLER_ADDRESS: '12 MG Road, Bengaluru 560001',
  SELLER_GSTIN: '29AAGCB7383J1Z4',
  INVOICE_PREFIX: 'AB',
};

// No GST and no store name in the environment: the console sets them. STORE_SUPPORT_URL is the environment's.
const app = usePaymentsApp({
  OPERATOR_PROVIDER_IDS: OPERATOR,
  STORE_SUPPORT_URL: 'https://discord.gg/melody',
});
const { request } = consoleRequests(app, OPERATOR);
const change = (changes: Record<string, string | null>) =>
  request('POST', '/api/console/settings', { changes });
const storeConfig = async () => (await app().app.inject({ method: 'GET', url: '/store/config.json' })).json();

async function invoiceOfNewOrder(user: User) {
  const order = await orderAs(app(), user, { ...MONTHLY_USER, billing: { stateCode: '29' } });
  const checkout = await app().sandbox.razorpay.pay(order.id);
  expect((await verifyAs(app(), user, verifyBody(user, checkout))).statusCode).toBe(200);
  const reply = await app().app.inject({
    method: 'GET',
    url: `/api/payment/orders/${order.id}/invoice`,
    headers: { authorization: bearer(app(), user), accept: 'application/json' },
  });
  return reply.json();
}

const changeRows = () =>
  app().core.sequelize.query<{
    name: string;
    old_value: string | null;
    new_value: string | null;
    changed_by: string;
  }>('SELECT name, old_value, new_value, changed_by FROM setting_changes ORDER BY id', {
    type: QueryTypes.SELECT,
  });

describe("the seller's settings in the console", () => {
  it('renames the store and turns GST on without a restart: the store page and the next invoice follow', async () => {
    expect(await storeConfig()).toMatchObject({ name: 'Premium', taxInvoices: false });
    const before = await invoiceOfNewOrder(await createUser());
    expect([before.kind, before.seller.gstin]).toEqual(['receipt', null]);

    expect((await change({ STORE_NAME: 'Melody Premium' })).statusCode).toBe(200);
    const turnedOn = await change(GST);

    expect(turnedOn.statusCode).toBe(200);
    expect(turnedOn.json().status.gst).toEqual({ on: true, gstin: GST.SELLER_GSTIN, lut: false });
    expect(await storeConfig()).toMatchObject({ name: 'Melody Premium', taxInvoices: true });
    const after = await invoiceOfNewOrder(await createUser());
    expect(after).toMatchObject({
      kind: 'invoice',
      number: expect.stringMatching(/^AB\/\d{4}\/000001$/),
      seller: { gstin: GST.SELLER_GSTIN, name: GST.SELLER_NAME, address: GST.SELLER_ADDRESS },
    });
  });

  it('writes an audit row per change: who, the old value and the new', async () => {
    await change({ STORE_NAME: 'Melody' });
    await change({ STORE_NAME: 'Melody Premium' });
    await change({ STORE_NAME: null });

    const actor = `console:ops (${OPERATOR})`;
    expect(await changeRows()).toEqual([
      { name: 'STORE_NAME', old_value: null, new_value: 'Melody', changed_by: actor },
      { name: 'STORE_NAME', old_value: 'Melody', new_value: 'Melody Premium', changed_by: actor },
      { name: 'STORE_NAME', old_value: 'Melody Premium', new_value: null, changed_by: actor },
    ]);
    const { settings, changes } = (await request('GET', '/api/console/settings')).json();
    expect(settings.find((setting: { name: string }) => setting.name === 'STORE_NAME')).toMatchObject({
      value: 'Premium',
      source: 'default',
      readOnly: false,
    });
    expect(changes).toHaveLength(3);
  });

  it('refuses a bad value naming the rule, and changes nothing', async () => {
    const refusals = [
      [{ SELLER_GSTIN: '29AAGCB7383J1Z5' }, 'SELLER_GSTIN'],
      [{ SELLER_GSTIN: GST.SELLER_GSTIN }, 'SELLER_NAME'], // a tax invoice names its seller
      [{ SELLER_LUT: 'ad-290426' }, 'SELLER_LUT'],
      [{ STORE_NAME: 'x'.repeat(61) }, 'STORE_NAME'],
      [{ CREDIT_NOTE_PREFIX: 'INV' }, 'CREDIT_NOTE_PREFIX'],
      [{ TIER_ROLES: 'premium=12' }, 'TIER_ROLES'],
    ] as const;
    for (const [changes, name] of refusals) {
      const reply = await change(changes);
      expect(answer(reply)).toEqual([400, 'SETTING_INVALID']);
      expect(reply.json().error.details.problems).toContainEqual({ name, message: expect.any(String) });
    }
    expect(answer(await change({ RAZORPAY_KEY_SECRET: 'x' }))).toEqual([400, 'SETTING_UNKNOWN']);
    expect(await changeRows()).toEqual([]);
    expect(await storeConfig()).toMatchObject({ name: 'Premium', taxInvoices: false });
  });

  it('shows what the environment sets as read-only, and refuses to change it: the environment wins', async () => {
    const reply = await change({ STORE_SUPPORT_URL: 'https://example.com/help' });

    expect(answer(reply)).toEqual([400, 'SETTING_SET_BY_ENVIRONMENT']);
    const { settings } = (await request('GET', '/api/console/settings')).json();
    expect(settings.find((setting: { name: string }) => setting.name === 'STORE_SUPPORT_URL')).toMatchObject({
      value: 'https://discord.gg/melody',
      source: 'environment',
      readOnly: true,
    });
    expect(await storeConfig()).toMatchObject({ supportUrl: 'https://discord.gg/melody' });
  });

  it("never shows a secret, nor a webhook URL's token", async () => {
    const webhook = `https://discord.com/api/webhooks/${snowflake()}/secret-token-part`;
    expect((await change({ SELLER_DISCORD_WEBHOOK_URL: webhook })).statusCode).toBe(200);

    const page = (await request('GET', '/api/console/settings')).body;
    expect(page).not.toContain('secret-token-part');
    expect(page).not.toContain(app().core.config.razorpay.keySecret);
    expect(JSON.stringify(await changeRows())).not.toContain('secret-token-part');
    expect(JSON.parse(page).status).toMatchObject({
      payments: { keys: 'test', sandbox: true },
      notices: { on: true },
      roles: { on: false },
    });
  });

  it('keeps buyer message texts by key', async () => {
    expect((await change({ MESSAGE_THANKS: 'Thank you for supporting Melody!' })).statusCode).toBe(200);
    expect(answer(await change({ MESSAGE_THANKS: ' ' }))).toEqual([400, 'SETTING_INVALID']);

    const { messages, status } = (await request('GET', '/api/console/settings')).json();
    expect(messages).toEqual([
      expect.objectContaining({ name: 'MESSAGE_THANKS', value: 'Thank you for supporting Melody!' }),
    ]);
    expect(status.messages).toEqual({ count: 1 });
  });

  it("edits each kind's text with a preview that fills the placeholders in, as the buyer reads it", async () => {
    const preview = (kind: string, text: string | null) =>
      request('POST', '/api/console/messages/preview', { kind, text });

    const page = (await request('GET', '/api/console/settings')).json();
    expect(page.messageKinds.map((kind: { name: string }) => kind.name)).toEqual([
      'MESSAGE_RECEIPT',
      'MESSAGE_REFUND',
      'MESSAGE_RENEWAL_UPCOMING',
      'MESSAGE_CHARGE_FAILED',
      'MESSAGE_TRIAL_ENDING',
      'MESSAGE_EXPIRING',
      'MESSAGE_LAPSED',
    ]);
    expect(page.messageKinds[0]).toMatchObject({
      kind: 'receipt',
      default: expect.stringContaining('{amount}'),
    });

    const store = app().core.config.frontendUrl;
    const typed = await preview('receipt', 'Thanks {buyer}: {amount} for {plan}. {link} {nope}');
    expect(typed.json()).toEqual({
      preview: `Thanks asha: ₹199.00 for premium Monthly (30 days). ${store}/dashboard {nope}`,
    });
    // Nothing typed: the default, until the seller saves a text of their own.
    expect((await preview('lapsed', '')).json().preview).toBe(
      `Hi asha, your premium Monthly (30 days) has ended. You are welcome back any time: ${store}/`,
    );
    expect(
      (await change({ MESSAGE_LAPSED: 'Miss you, {buyer}: {offer} {link}', WINBACK_OFFER: 'back20' }))
        .statusCode,
    ).toBe(200);
    expect((await preview('lapsed', null)).json().preview).toBe(
      `Miss you, asha: BACK20 ${store}/?offer=BACK20`,
    );
    expect(answer(await preview('winback', 'x'))).toEqual([400, 'VALIDATION_FAILED']);
    expect(answer(await change({ WINBACK_OFFER: 'no spaces please' }))).toEqual([400, 'SETTING_INVALID']);
  });
});
