import type { Sequelize } from 'sequelize';

/** MAX_REVOKES_PER_HOUR of the core each database belongs to (null: the default rule). */
const limits = new WeakMap<Sequelize, number | null>();

/** Set by `createCore`, so that revokePremium, called with the database only, finds its process's setting. */
export function setRevokeLimit(sequelize: Sequelize, maxRevokesPerHour: number | null): void {
  limits.set(sequelize, maxRevokesPerHour);
}

export function configuredRevokeLimit(sequelize: Sequelize): number | null {
  return limits.get(sequelize) ?? null;
}

/** Without MAX_REVOKES_PER_HOUR: 5 % of the records with premium now, and never fewer than 100. */
export function defaultRevokeLimit(activeRecords: number): number {
  return Math.max(100, Math.ceil(activeRecords * 0.05));
}
