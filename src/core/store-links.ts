/** The store's addresses that the service hands out, from FRONTEND_URL (the store's root). */

/** The store's page where the buyer downloads invoices and credit notes and manages subscriptions. */
export function dashboardLink(frontendUrl: string): string {
  return `${frontendUrl}/dashboard`;
}

/** The store's plans: where a buyer renews or buys again. */
export function plansLink(frontendUrl: string): string {
  return `${frontendUrl}/`;
}

/**
 * The store's shareable link that fills its offer field with `code` (`<FRONTEND_URL>/?offer=DIWALI20`):
 * the store keeps the code through the buyer's sign-in.
 */
export function offerLink(frontendUrl: string, code: string): string {
  return `${frontendUrl}/?offer=${encodeURIComponent(code)}`;
}
