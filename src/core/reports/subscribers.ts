import type { Core } from '..';
import type { SubscribersReport } from './types';

/** Live subscriptions by status, MRR, churn, active premium, monthly movements and failing charges. */
export async function subscribersReport(
  core: Pick<Core, 'sequelize' | 'config'>,
): Promise<SubscribersReport> {
  void core;
  throw new Error('not yet');
}
