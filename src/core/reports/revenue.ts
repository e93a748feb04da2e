import type { Core } from '..';
import type { RevenueQuery, RevenueReport } from './types';

/** Gross, refunded, disputed and net INR by day or month in REPORT_TIMEZONE. */
export async function revenueReport(
  core: Pick<Core, 'sequelize' | 'config'>,
  query: RevenueQuery = {},
): Promise<RevenueReport> {
  void core;
  void query;
  throw new Error('not yet');
}
