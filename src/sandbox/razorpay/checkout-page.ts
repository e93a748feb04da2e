import type { RazorpayOrder } from '../../core/processor/types';
import { escapeHtml, htmlPage } from '../html';

function rupees(paise: number): string {
  return `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;
}

/** Stands in for Razorpay Checkout: a form posting the buyer's choice back to the same URL. */
export function checkoutPage(order: RazorpayOrder, formAction: string): string {
  return htmlPage(
    'Pay - Razorpay sandbox',
    `<h1>Pay ${escapeHtml(rupees(order.amount))}</h1>
<p>Order <code>${escapeHtml(order.id)}</code>${order.receipt === null ? '' : ` (receipt ${escapeHtml(order.receipt)})`}</p>
<form method="post" action="${escapeHtml(formAction)}">
<button class="primary" name="decision" value="pay">Pay</button>
<button name="decision" value="fail">Fail</button>
</form>
<p class="note">Local sandbox: no money moves.</p>`,
  );
}

export function checkoutErrorPage(message: string): string {
  return htmlPage('Payment failed - Razorpay sandbox', `<h1>Cannot pay</h1><p>${escapeHtml(message)}</p>`);
}
