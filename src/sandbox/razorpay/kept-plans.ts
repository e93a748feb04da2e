import fs from 'node:fs';
import path from 'node:path';
import type { RazorpayPlan } from '../../core/processor/subscription-types';
import type { SubscriptionSandbox } from './subscriptions';

/**
 * Keeps the sandbox's plans in `file` across restarts (`npm run dev` names `.dev/sandbox-plans.json`):
 * Razorpay never forgets a plan, and the catalog keeps the plan ids the console's **Set price** made, so
 * a sandbox that forgot them would refuse every later Subscribe (PROCESSOR_REJECTED). Reads the plans
 * the file has, then writes all of them after each new one. A file that is not such a list stops the
 * sandbox at start, naming it.
 */
export function keepPlansIn(subscriptions: SubscriptionSandbox, file: string): void {
  subscriptions.restorePlans(readPlans(file));
  subscriptions.onPlansChanged = (plans) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Written whole, then renamed: a sandbox stopped mid-write leaves the previous list.
    const partial = `${file}.partial`;
    fs.writeFileSync(partial, `${JSON.stringify(plans, null, 2)}\n`);
    fs.renameSync(partial, file);
  };
}

function readPlans(file: string): RazorpayPlan[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let plans: unknown;
  try {
    plans = JSON.parse(text);
  } catch {
    plans = null;
  }
  const isPlan = (plan: unknown) =>
    typeof plan === 'object' && plan !== null && typeof (plan as RazorpayPlan).id === 'string';
  if (!Array.isArray(plans) || !plans.every(isPlan))
    throw new Error(`${file} is not the sandbox's list of plans: delete it to start with none kept`);
  return plans as RazorpayPlan[];
}
