import type { Config } from '../../core/config';
import type { LiveSettings } from '../../core/settings';
import { gstStatesInOrder } from '../../core/gst';
import { CUSTOM_MONTH_PLAN, CUSTOM_MONTHS } from '../../core/plans';

export const RAZORPAY_CHECKOUT_JS = 'https://checkout.razorpay.com/v1/checkout.js';

/** The local sandbox's base URL when Razorpay is the sandbox (its API is `<base>/razorpay`), else null. */
export function sandboxUrl(config: Config): string | null {
  if (config.nodeEnv === 'production') return null;
  return /^(.*)\/razorpay$/.exec(config.razorpay.apiUrl)?.[1] ?? null;
}

/**
 * How the page pays: the sandbox's checkout page, or Razorpay Checkout with the account's key id (public
 * by design: checkout.js needs it in the browser). The server decides; the page never guesses.
 */
export type StoreCheckout =
  { kind: 'sandbox'; url: string } | { kind: 'razorpay'; scriptUrl: string; keyId: string };

/**
 * What the page needs besides the API (GET /store/config.json): its brand, how it pays, the sandbox's bot
 * stand-in, the Custom rule (N months, in range, of the catalog's `customMonthPlan`) and the billing
 * states, from the settings as they are now (docs/settings.md). The plans and their prices are the catalog's: the page reads GET /api/plans, as any frontend.
 */
export function storeSettings(config: Config, settings: Pick<LiveSettings, 'store' | 'invoicing'>) {
  const sandbox = sandboxUrl(config);
  const checkout: StoreCheckout = sandbox
    ? { kind: 'sandbox', url: `${config.razorpay.apiUrl}/checkout` }
    : { kind: 'razorpay', scriptUrl: RAZORPAY_CHECKOUT_JS, keyId: config.razorpay.keyId };
  return {
    name: settings.store.name,
    supportUrl: settings.store.supportUrl,
    checkout,
    botEventsUrl: sandbox === null ? null : `${sandbox}/bot/events`,
    customMonths: CUSTOM_MONTHS,
    customMonthPlan: CUSTOM_MONTH_PLAN,
    /** The billing state's choices: GST's states and union territories, in code order. */
    gstStates: gstStatesInOrder(),
    /** Whether the seller issues tax invoices: the buyer's state (or country) is then required. */
    taxInvoices: settings.invoicing.sellerGstin !== null,
    /** REPORT_TIMEZONE: the zone whose days the page writes (the API's times are UTC). */
    timeZone: config.reportTimeZone,
  };
}
