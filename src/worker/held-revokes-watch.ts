import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Core } from '../core';
import { countHeldRevokes } from '../core/revocation-guard/held-revokes';

/** How often the worker looks for held revokes. */
const CHECK_EVERY_MS = 30_000;

/**
 * Says, while the revocation guard holds automatic revokes, that an operator must look: an error in the
 * log at every check, `premium_held_revokes` (read at each scrape) and the worker's `/readyz` (503).
 */
export class HeldRevokesWatch {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly core: Core,
    private readonly logger: Logger,
    registry: Registry,
  ) {
    const count = () => countHeldRevokes(core.sequelize);
    new Gauge({
      name: 'premium_held_revokes',
      help: 'Automatic revokes held past MAX_REVOKES_PER_HOUR, waiting for `premium revokes release`',
      registers: [registry],
      async collect() {
        this.set(await count());
      },
    });
  }

  start(): void {
    const check = () => void this.check().catch(() => undefined);
    check();
    this.timer = setInterval(check, CHECK_EVERY_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The number of held revokes, logged as an error when there are any. */
  async check(): Promise<number> {
    const held = await countHeldRevokes(this.core.sequelize);
    if (held > 0) {
      this.logger.error(
        { heldRevokes: held },
        'automatic revokes are held past MAX_REVOKES_PER_HOUR: check them (premium revokes held), then premium revokes release',
      );
    }
    return held;
  }
}
