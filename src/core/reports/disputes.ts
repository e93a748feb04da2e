import type { Core } from '..';
import { inr, select } from './select';
import { OPEN_DISPUTES_SQL } from './sql';
import type { OpenDispute } from './types';

type DisputeRow = Omit<OpenDispute, 'amount' | 'respondBy' | 'openedAt'> & {
  amountPaise: number;
  respondBy: Date | null;
  openedAt: Date;
};

export async function openDisputes(core: Pick<Core, 'sequelize'>): Promise<OpenDispute[]> {
  const rows = await select<DisputeRow>(core.sequelize, OPEN_DISPUTES_SQL, []);
  return rows.map(({ amountPaise, respondBy, openedAt, ...dispute }) => ({
    ...dispute,
    amount: inr(amountPaise),
    respondBy: respondBy?.toISOString() ?? null,
    openedAt: openedAt.toISOString(),
  }));
}
