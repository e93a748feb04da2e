import type { Sequelize } from 'sequelize';
import type { Core } from '../core';
import type { DatabaseConfig } from '../core/config';
import { fitWidth, printable, showTimesIn } from './format';
import type { RazorpayClient } from '../core/processor/razorpay-client';

// The database libraries, the configuration's validation and Razorpay's client are loaded when a command
// first asks for them, not at start: `--help` and usage errors need none of them (docs/performance.md).
const coreModule = () => require('../core') as typeof import('../core');
const configModule = () => require('../core/config') as typeof import('../core/config');

export interface GlobalOptions {
  json?: boolean;
  verbose?: boolean;
}

/** The CLI runs one command at a time; a few connections cover the parallel reads of `users show`. */
const POOL_MAX = 4;

/**
 * What every command shares: the global options, the core (opened on first use, so that `--help` and
 * usage errors need neither configuration nor a database) and the output, JSON or text.
 */
export class Session {
  private opened: Core | undefined;
  private database: Sequelize | undefined;

  constructor(private readonly globalOptions: () => GlobalOptions) {}

  get options(): GlobalOptions {
    return this.globalOptions();
  }

  core(): Core {
    if (!this.opened) {
      this.opened = coreModule().createCore(configModule().loadConfig(), { poolMax: POOL_MAX });
      showTimesIn(this.opened.config.reportTimeZone);
    }
    return this.opened;
  }

  /**
   * The database settings alone, for the `db` commands: a migration job is given DATABASE_URL, not the
   * secrets and prices the service needs (loadConfig would refuse to start without them in production).
   */
  databaseConfig(): DatabaseConfig {
    return this.opened?.config ?? configModule().loadDatabaseConfig();
  }

  /** The database of `databaseConfig`, opened on first use (the core's when it is open). */
  sequelize(): Sequelize {
    if (this.opened) return this.opened.sequelize;
    this.database ??= coreModule().openDatabase(this.databaseConfig(), { poolMax: POOL_MAX });
    return this.database;
  }

  processor(): RazorpayClient {
    const { razorpayClientFor } =
      require('../core/payments/processor') as typeof import('../core/payments/processor');
    return razorpayClientFor(this.core().config);
  }

  /**
   * With `--json`, the document and nothing else on stdout; otherwise the text rendering of it, control
   * characters escaped, its lines cut to the terminal's width when stdout is one (piped, kept whole).
   */
  emit<T>(document: T, render: (document: T) => string): void {
    if (this.options.json) {
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
      return;
    }
    const text = printable(render(document));
    const { isTTY, columns } = process.stdout;
    process.stdout.write(`${isTTY && columns > 0 ? fitWidth(text, columns) : text}\n`);
  }

  /** Lets the process exit promptly: the pool would otherwise hold it for its idle timeout. */
  async close(): Promise<void> {
    await this.opened?.close();
    await this.database?.close();
  }
}
