import type { Core } from '..';
import type { OpenDispute } from './types';

/** Disputes that still hold money or premium, soonest `respond_by` first. */
export async function openDisputes(core: Pick<Core, 'sequelize'>): Promise<OpenDispute[]> {
  void core;
  throw new Error('not yet');
}
