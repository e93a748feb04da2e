import pg from 'pg';
import type { Logger } from 'pino';
import { Backoff } from './backoff';
import { sleep } from '../sleep';
import { LISTEN_OUTBOX } from './sql';

const RECONNECT = { baseMs: 200, maxMs: 10_000 };

/**
 * Holds a dedicated connection that LISTENs on the outbox channel and calls `onNotify` for every
 * notification, and once after each (re)connection for what was committed while it was not listening.
 * A lost connection is re-established with backoff; the relay's poll covers the gap.
 */
export class OutboxListener {
  private readonly stopping = new AbortController();
  private readonly backoff = new Backoff(RECONNECT);
  private client: pg.Client | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly onNotify: () => void,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.loop ??= this.listenUntilStopped();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.client?.end();
    await this.loop;
  }

  private async listenUntilStopped(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      const client = new pg.Client({
        connectionString: this.databaseUrl,
        application_name: 'premium-relay-listen',
        keepAlive: true,
        connectionTimeoutMillis: 5_000,
      });
      client.on('error', (error) => this.logger.warn({ err: error }, 'outbox listener connection failed'));
      this.client = client;
      try {
        await this.listen(client);
      } catch (error) {
        if (!this.stopping.signal.aborted)
          this.logger.warn({ err: error }, 'outbox listener could not listen');
      }
      await client.end();
      this.client = null;
      await sleep(this.backoff.next(), this.stopping.signal);
    }
  }

  /** Resolves when the connection ends. */
  private async listen(client: pg.Client): Promise<void> {
    await client.connect();
    const ended = new Promise<void>((resolve) => client.once('end', resolve));
    client.on('notification', () => this.onNotify());
    await client.query(LISTEN_OUTBOX);
    this.backoff.reset();
    this.onNotify();
    await ended;
  }
}
