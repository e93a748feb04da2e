import pino from 'pino';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Core } from '../../src/core';
import type { User } from '../../src/core/models';
import { grantPremium } from '../../src/core/premium/grant';
import { SANDBOX_BOT_TOKEN, startSandbox, type Sandbox } from '../../src/sandbox';
import { JobWorker } from '../../src/worker/queue/job-worker';
import { workerRoles } from '../../src/worker/roles';
import { testConfig, useTestCore } from './context';
import { createUser, grantRequest } from './fixtures';
import { useRelays } from './relays';

export const GUILD = '700000000000000001';
export const ROLE_PREMIUM = '700000000000000011';
export const ROLE_PRO = '700000000000000012';
/** A role the service does not manage: it must be left alone. */
export const ROLE_MEMBER = '700000000000000013';

/** Roles on, against the sandbox's guild: premium and pro have a role each. */
export const ROLES_ENV: NodeJS.ProcessEnv = {
  DISCORD_BOT_TOKEN: SANDBOX_BOT_TOKEN,
  ROLE_GUILD_ID: GUILD,
  TIER_ROLES: `premium=${ROLE_PREMIUM},pro=${ROLE_PRO}`,
  OUTBOX_POLL_INTERVAL_MS: '100',
};

/** The seller's guild, made anew (no member, Discord's own limits) before each test. */
export function useGuild(sandbox: () => Sandbox): void {
  beforeEach(() => {
    const guilds = sandbox().discord.guilds;
    guilds.create(GUILD, 'Seller', { [ROLE_PREMIUM]: 'Premium', [ROLE_PRO]: 'Pro', [ROLE_MEMBER]: 'Member' });
    guilds.setRateLimits({ route: { limit: 10, windowMs: 1000 }, global: { limit: 50, windowMs: 1000 } });
  });
}

/** The worker's side of roles for the test: a relay that queues role syncs and the queue's worker. */
export function useRoleWorker(core: () => Core): () => void {
  const startRelay = useRelays();
  const stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.splice(0).map((stop) => stop()));
  });
  return () => {
    startRelay(core().config, { queueRoleSyncs: true });
    const logger = pino({ level: 'silent' });
    const roles = workerRoles(core(), logger)!;
    const worker = new JobWorker({
      sequelize: core().sequelize,
      handlers: [roles.handler],
      logger,
      pollMs: 100,
    });
    worker.start();
    stops.push(() => worker.stop());
  };
}

export const rolesOf = (sandbox: Sandbox, user: User) =>
  sandbox.discord.guilds.memberRoles(GUILD, user.providerId);

export interface QueuedSync {
  attempts: number;
  last_error: string | null;
  skipped_at: Date | null;
}

/** The user's role sync in the work queue, not done (set aside: dead as no member), or undefined. */
export async function queuedSync(sequelize: Sequelize, user: User): Promise<QueuedSync | undefined> {
  const [row] = await sequelize.query<QueuedSync>(
    `SELECT attempts, last_error, CASE WHEN state = 'dead' THEN finished_at END AS skipped_at
     FROM jobs WHERE kind = 'role_sync' AND dedupe_key = $1 AND state <> 'done'`,
    { bind: [user.providerId], type: QueryTypes.SELECT },
  );
  return row;
}

export interface GuildTest {
  core: () => Core;
  sandbox: () => Sandbox;
  /** A new user in the guild holding `roles`, premium (of the default tier) when asked; their Discord id. */
  member(roles: string[], options?: { premium?: boolean }): Promise<string>;
}

/** A core and a sandbox of the file's own, the seller's guild made anew before each test. */
export function useGuildTest(): GuildTest {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    const { discord, razorpay } = testConfig();
    sandbox = await startSandbox({ discord, razorpay });
  });
  afterAll(() => sandbox?.close());
  const core = useTestCore();
  useGuild(() => sandbox!);
  return {
    core,
    sandbox: () => sandbox!,
    async member(roles, { premium = false } = {}) {
      const user = await createUser();
      if (premium) await grantPremium(core().sequelize, grantRequest(user.providerId));
      sandbox!.discord.guilds.join(GUILD, user.providerId, roles);
      return user.providerId;
    },
  };
}
