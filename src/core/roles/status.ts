import type { Sequelize } from 'sequelize';
import { listTiers } from '../catalog';
import type { Config } from '../config';
import { selectRows } from '../db/database';
import type { DriftOutcome, DriftReport } from './drift-sync';
import { NOT_A_MEMBER_REASON } from './sync';
import { LAST_RUN, QUEUE_COUNTS, QUEUE_PROBLEMS } from './sql';

/** Failing and set-aside users `premium roles status` lists. */
const LISTED = 50;

export interface RoleQueueProblem {
  providerId: string;
  attempts: number;
  lastError: string | null;
  dueAt: Date;
  /** Set when the user is not a member of the guild: they wait for the drift sync or `sync --user`. */
  notMemberSince: Date | null;
}

export interface RolesStatus {
  enabled: boolean;
  guildId: string | null;
  /** TIER_ROLES: the role of each tier code. */
  tierRoles: Record<string, string>;
  queue: {
    due: number;
    inProgress: number;
    failing: number;
    notMembers: number;
    /** Up to 50 failing, then set-aside users, with their last error. */
    problems: RoleQueueProblem[];
  };
  lastSync: { startedAt: Date; finishedAt: Date; outcome: DriftOutcome; result: DriftReport } | null;
}

/** Whether roles are on, their mapping, the queue and the last drift sync. */
export async function rolesStatus(sequelize: Sequelize, config: Pick<Config, 'roles'>): Promise<RolesStatus> {
  const [[counts], problems, [lastSync]] = await Promise.all([
    selectRows<Omit<RolesStatus['queue'], 'problems'>>(sequelize, QUEUE_COUNTS, [NOT_A_MEMBER_REASON]),
    selectRows<RoleQueueProblem>(sequelize, QUEUE_PROBLEMS, [NOT_A_MEMBER_REASON, LISTED]),
    selectRows<NonNullable<RolesStatus['lastSync']>>(sequelize, LAST_RUN),
  ]);
  return {
    enabled: config.roles !== null,
    guildId: config.roles?.guildId ?? null,
    tierRoles: config.roles?.tierRoles ?? {},
    queue: { ...counts!, problems },
    lastSync: lastSync ?? null,
  };
}

/** The TIER_ROLES tier codes the catalog does not hold: the worker warns of them at start. */
export async function unknownTierCodes(
  sequelize: Sequelize,
  tierRoles: Record<string, string>,
): Promise<string[]> {
  const known = new Set((await listTiers(sequelize)).map((tier) => tier.code));
  return Object.keys(tierRoles).filter((code) => !known.has(code));
}
