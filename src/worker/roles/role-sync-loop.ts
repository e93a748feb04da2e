import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { Sequelize } from 'sequelize';
import type { RoleSettings } from '../../core/config';
import { drainRoleSyncs, type GuildMembers } from '../../core/roles';

/**
 * Drains the role-sync queue (docs/roles.md): a batch after another while rows are due, then a look every
 * `pollIntervalMs` (OUTBOX_POLL_INTERVAL_MS: a role follows its event by about that much more).
 */
export class RoleSyncLoop {
  private readonly stopping = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(
    private readonly sequelize: Sequelize,
    private readonly settings: RoleSettings,
    private readonly guild: GuildMembers,
    private readonly pollIntervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.loop ??= this.drainUntilStopped();
  }

  /** Ends the sync in hand (its Discord call is aborted; the row comes back due) and the loop. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  private async drainUntilStopped(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      let busy = false;
      try {
        const { synced, failed } = await drainRoleSyncs(this.sequelize, this.settings, this.guild, {
          signal,
        });
        busy = synced.length + failed.length > 0;
        for (const failure of failed) this.logger.warn(failure, 'role sync failed; will retry');
        for (const sync of synced)
          if (sync.outcome !== 'in-step') this.logger.info(sync, `role sync: ${sync.outcome}`);
      } catch (error) {
        if (!signal.aborted) this.logger.error({ err: error }, 'role sync round failed');
      }
      if (!busy) await sleep(this.pollIntervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
