import type { RazorpayPlan, RazorpaySubscription } from '../../core/processor/subscription-types';
import { escapeHtml, friendlyTime as time, htmlPage } from '../html';

function rupees(paise: number): string {
  return `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: 2 })}`;
}

/** Stands in for Checkout's subscription flow: the buyer sets up a UPI AutoPay or card mandate, or declines. */
export function subscriptionCheckoutPage(
  subscription: RazorpaySubscription,
  plan: RazorpayPlan,
  formAction: string,
): string {
  const starts =
    subscription.start_at === null
      ? 'charged now, then every cycle'
      : `first charge on ${escapeHtml(time(subscription.start_at))}`;
  return htmlPage(
    'Subscribe - Razorpay sandbox',
    `<h1>Subscribe: ${escapeHtml(rupees(plan.item.amount))} every ${plan.interval > 1 ? `${plan.interval} ` : ''}${escapeHtml(plan.period.replace(/ly$/, ''))}</h1>
<p>${escapeHtml(plan.item.name)} (subscription <code>${escapeHtml(subscription.id)}</code>): ${starts}.</p>
<form method="post" action="${escapeHtml(formAction)}">
<p><label><input type="radio" name="method" value="upi" checked> UPI AutoPay (success@razorpay)</label><br>
<label><input type="radio" name="method" value="card"> Card mandate (4111 1111 1111 1111)</label></p>
<button class="primary" name="decision" value="approve">Approve</button>
<button name="decision" value="decline">Decline</button>
</form>
<p class="note">Local sandbox: no money moves.</p>`,
  );
}

/** The sandbox's own control of a subscription: its state, and its next cycle run now. */
export function subscriptionControlPage(
  subscription: RazorpaySubscription,
  formAction: string,
  returnUrl: string | undefined,
): string {
  const runnable = ['authenticated', 'active', 'pending', 'halted'].includes(subscription.status);
  return htmlPage(
    'Subscription - Razorpay sandbox',
    `<h1>Subscription <code>${escapeHtml(subscription.id)}</code></h1>
<p>Status <strong id="status">${escapeHtml(subscription.status)}</strong>, paid ${subscription.paid_count} of ${subscription.total_count} cycles.<br>
Current cycle ${escapeHtml(time(subscription.current_start))} to ${escapeHtml(time(subscription.current_end))}.<br>
Next charge ${escapeHtml(time(subscription.charge_at))}${subscription.has_scheduled_changes ? ' (cancelled at cycle end)' : ''}.</p>
${
  runnable
    ? `<form method="post" action="${escapeHtml(formAction)}">
<button class="primary" name="outcome" value="charged">Charge next cycle now</button>
<button name="outcome" value="failed">Fail next charge</button>
</form>`
    : '<p>Nothing more will be charged.</p>'
}
${returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Back</a></p>` : ''}
<p class="note">Runs the cycle now and sends the signed webhooks, as Razorpay would at the due date.</p>`,
  );
}
