/* global window, document, location, URL, settings, me, api, say, errorText, ApiError, formatDate, holderName, STORE */
'use strict';

// Paying in the store: Razorpay Checkout over the page in production, the sandbox's checkout page in
// development, as /store/config.json says (settings.checkout); then verify-payment, whose failure on the
// way is not a lost payment. Loaded before store.js, whose helpers it uses when called as
// `StoreCheckout.open()` and `.finish()` (classic scripts share one global scope).

/** Razorpay's checkout.js, loaded once, at the first payment (the CSP allows its origin alone). */
let razorpayScript;

function loadRazorpay() {
  razorpayScript ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = settings.checkout.scriptUrl;
    script.addEventListener('load', resolve);
    script.addEventListener('error', () => {
      razorpayScript = undefined;
      script.remove();
      reject(new Error('Razorpay Checkout did not load: check your connection, then pay again'));
    });
    document.head.append(script);
  });
  return razorpayScript;
}

/**
 * Pays an unpaid order, saying what came of it in `line` (beside the button pressed): Razorpay Checkout
 * over this page, whose answer is verified here; or the sandbox's checkout page, which comes back to
 * /store/dashboard with the payment (finishCheckout).
 */
async function openCheckout(orderId, line = 'buy-message') {
  if (settings.checkout.kind === 'sandbox') {
    const checkout = new URL(settings.checkout.url);
    checkout.searchParams.set('order_id', orderId);
    checkout.searchParams.set('callback_url', new URL(`${STORE}/dashboard`, location.origin).href);
    location.assign(checkout);
    return;
  }
  await loadRazorpay();
  const checkout = new window.Razorpay({
    key: settings.checkout.keyId,
    order_id: orderId,
    name: settings.name,
    handler: (response) => verifyPayment(response, line),
    modal: { ondismiss: () => say(line, 'Checkout closed. Nothing was charged: pay from Your orders.') },
  });
  checkout.on('payment.failed', (response) =>
    say(line, `Payment failed: ${response.error.description}. Nothing was charged: try again.`, 'error'),
  );
  checkout.open();
}

/** Whether the call may have failed on the way rather than been refused: nothing answered, or a 5xx. */
const failedOnTheWay = (error) => !(error instanceof ApiError) || error.status === 0 || error.status >= 500;

/**
 * Verifies a payment the checkout handed back (never trusted from the page). A paid payment whose
 * verification fails on the way is still applied: Razorpay's webhook tells the service of it.
 */
async function verifyPayment(fields, line) {
  try {
    const reply = await api('/api/payment/verify-payment', {
      providerId: me.providerId,
      razorpay_order_id: fields.razorpay_order_id,
      razorpay_payment_id: fields.razorpay_payment_id,
      razorpay_signature: fields.razorpay_signature,
    });
    say(
      line,
      reply.giftCode
        ? `Payment verified: your gift code of ${reply.planType} is ${reply.giftCode}. It is under Gifts you bought.`
        : `Payment verified: ${reply.planType} premium for ${holderName(reply.guildId)} is active until ${formatDate(reply.expiresAt)}.`,
    );
  } catch (error) {
    if (!failedOnTheWay(error)) {
      say(line, errorText(error, 'The payment could not be verified'), 'error');
      return;
    }
    say(
      line,
      `Your payment went through, but this page could not confirm it (${errorText(error)}). Nothing is lost: ` +
        'Razorpay tells the store of every payment, and your premium is applied within a few minutes. ' +
        'Do not pay again: see the order under Your orders, where "Check again" asks Razorpay now.',
      'error',
    );
  }
}

/** Back from the sandbox's checkout page: the payment is verified by the API, never trusted from the URL. */
async function finishCheckout(params) {
  // A declined mandate leaves no order to pay again: what exists is the Subscribe button.
  if (params.get('error') && params.get('razorpay_subscription_id')) {
    say(
      'buy-message',
      `Subscription not set up: ${params.get('error_description') ?? params.get('error')}. Nothing was charged: press Subscribe to try again.`,
      'error',
    );
    return;
  }
  if (params.get('error')) {
    say(
      'buy-message',
      `Payment failed: ${params.get('error_description') ?? params.get('error')}. Nothing was charged: pay again from Your orders.`,
      'error',
    );
    return;
  }
  // A subscription's return is subscriptions.js's to verify.
  if (!params.get('razorpay_payment_id') || params.get('razorpay_subscription_id')) return;
  await verifyPayment(Object.fromEntries(params), 'buy-message');
}

window.StoreCheckout = { open: openCheckout, finish: finishCheckout };
