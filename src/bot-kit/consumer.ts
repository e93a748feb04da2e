import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Redis } from 'ioredis';
import { parseEntry, type Features, type PremiumEvent } from './events';
import { PremiumMemory, RecentIds, targetOf, type HeldRecord, type Target } from './memory';
import { currentVersion, loadSnapshot, type BotApi } from './snapshot';

export interface PremiumConsumerOptions {
  /**
   * A connection of the kit's own (e.g. `redis.duplicate()`): it blocks on XREADGROUP for up to
   * `blockMs`. A Redis, a Sentinel-backed Redis or a Cluster; without `commandTimeout` shorter than
   * `blockMs`, and with `maxRetriesPerRequest: null` so reads wait for Redis rather than fail.
   */
  redis: Redis | Cluster;
  /** The service's EVENTS_STREAM. */
  stream?: string;
  /** Every process of a bot that shares the work uses one group; each process that needs the whole picture in memory uses a group of its own. */
  group: string;
  /** Stable across restarts (e.g. `shard-3`): a restarted consumer finds the entries it had not acknowledged. */
  consumer: string;
  /**
   * Called once per new event (at least once: after a crash, an event may come again), in stream order
   * per consumer. The entry is acknowledged when it resolves; when it throws, the entry stays pending
   * and is retried after `claimIdleMs`.
   */
  handler?: (event: PremiumEvent) => Promise<void> | void;
  /**
   * Where to load the snapshot of every active record at start, and to ask about an event for a record
   * memory does not hold; without it, memory starts empty.
   */
  api?: BotApi;
  batchSize?: number;
  blockMs?: number;
  /** An entry pending this long (its consumer died, or its handler threw) is claimed and retried. */
  claimIdleMs?: number;
  /** How often to look for such entries. */
  claimEveryMs?: number;
  /** Event ids remembered to drop duplicates. */
  dedupeCapacity?: number;
  log?: (message: string) => void;
}

export interface ConsumerStats {
  /** Events whose handler resolved. */
  handled: number;
  /** Events dropped because their eventId was seen. */
  duplicates: number;
  /** Events dropped because the record's held version, or the service's, is newer. */
  outdated: number;
  /** Entries that are not a readable event: logged and acknowledged once. */
  unparseable: number;
  /** Handler calls that threw (the entry stays pending). */
  handlerFailures: number;
  /** Entries taken over from idle pending entries (XAUTOCLAIM). */
  claimed: number;
  /** Records loaded from the snapshot. */
  snapshotRecords: number;
}

type Entry = [id: string, fields: string[] | null];

const DEFAULTS = {
  stream: 'premium:events',
  batchSize: 100,
  blockMs: 5_000,
  claimIdleMs: 60_000,
  dedupeCapacity: 100_000,
};
const RETRY_MS = 1_000;
/** How far the service's clock may be ahead of the bot's, for `occurredAt` against the snapshot's start. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * A bot's side of the premium stream (docs/events.md): consumer group, own pending entries first,
 * claiming what dead consumers left, duplicates dropped by eventId, changes applied only when newer,
 * XACK only after the handler resolved, the snapshot at start, and `isPremium` from memory.
 */
export class PremiumConsumer {
  readonly stats: ConsumerStats = {
    handled: 0,
    duplicates: 0,
    outdated: 0,
    unparseable: 0,
    handlerFailures: 0,
    claimed: 0,
    snapshotRecords: 0,
  };
  private readonly memory = new PremiumMemory();
  private readonly seen: RecentIds;
  private readonly options: Required<Omit<PremiumConsumerOptions, 'api' | 'handler'>> &
    Pick<PremiumConsumerOptions, 'api' | 'handler'>;
  private snapshotStartedAt: number | null = null;
  private stopped = false;
  private running: Promise<void> | null = null;

  constructor(options: PremiumConsumerOptions) {
    this.options = {
      ...DEFAULTS,
      claimEveryMs: Math.max(1, Math.floor((options.claimIdleMs ?? DEFAULTS.claimIdleMs) / 2)),
      log: (message) => console.warn(message),
      ...options,
    };
    this.seen = new RecentIds(this.options.dedupeCapacity);
  }

  /**
   * Joins the group (creating it, and the stream, at the stream's end when missing), then loads the
   * snapshot, then consumes in the background. In that order: every change committed after the group
   * exists reaches it through the stream, and every earlier one is in the snapshot.
   */
  async start(): Promise<void> {
    await this.ensureGroup();
    if (this.options.api) {
      this.snapshotStartedAt = Date.now();
      for await (const batch of loadSnapshot(this.options.api)) {
        for (const { target, record } of batch) this.memory.apply(target, record);
        this.stats.snapshotRecords += batch.length;
      }
    }
    this.running = this.consume();
  }

  /** Finishes the entry in hand and the read in progress (up to `blockMs`), then stops. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  isPremium(target: Target, now = Date.now()): boolean {
    return this.memory.isPremium(target, now);
  }

  /** The tier a guild or user runs now (the one its last version announced); null when not premium. */
  tier(target: Target, now = Date.now()): string | null {
    return this.memory.running(target, now).tier;
  }

  /** The features of the tier a guild or user runs now; `{}` when not premium. */
  features(target: Target, now = Date.now()): Features {
    return this.memory.running(target, now).features;
  }

  /**
   * Whether a guild or user is premium now with a tier that has feature `key`: any value but `false`,
   * `null` or none (read a limit's value with `features()`).
   */
  hasFeature(target: Target, key: string, now = Date.now()): boolean {
    const value = this.features(target, now)[key];
    return value !== undefined && value !== null && value !== false;
  }

  /** The held expiry, version, slots, tier and features of a guild's or user's record, if any. */
  record(target: Target): HeldRecord | undefined {
    return this.memory.get(target);
  }

  records(): { target: Target; record: HeldRecord }[] {
    return this.memory.entries();
  }

  private async ensureGroup(): Promise<void> {
    try {
      await this.options.redis.xgroup('CREATE', this.options.stream, this.options.group, '$', 'MKSTREAM');
    } catch (error) {
      if (!(error as Error).message.startsWith('BUSYGROUP')) throw error;
    }
  }

  private async consume(): Promise<void> {
    // Own pending entries first (delivered before a restart, never acknowledged), then new ones.
    let pendingAfter: string | null = '0';
    let nextClaimAt = 0;
    while (!this.stopped) {
      try {
        if (pendingAfter !== null) {
          const entries = await this.read(pendingAfter);
          pendingAfter = entries.length > 0 ? entries[entries.length - 1]![0] : null;
          await this.handleAll(entries);
        } else if (Date.now() >= nextClaimAt) {
          await this.claimIdle();
          nextClaimAt = Date.now() + this.options.claimEveryMs;
        } else {
          await this.handleAll(await this.read('>'));
        }
      } catch (error) {
        if (this.stopped) return;
        const message = (error as Error).message;
        this.options.log(`premium consumer: reading ${this.options.stream} failed (${message}); retrying`);
        if (message.startsWith('NOGROUP')) await this.ensureGroup().catch(() => undefined);
        await sleep(RETRY_MS);
      }
    }
  }

  private async read(after: string): Promise<Entry[]> {
    const { redis, group, consumer, batchSize, blockMs, stream } = this.options;
    const reply = (await (after === '>'
      ? redis.xreadgroup(
          'GROUP',
          group,
          consumer,
          'COUNT',
          batchSize,
          'BLOCK',
          blockMs,
          'STREAMS',
          stream,
          '>',
        )
      : redis.xreadgroup('GROUP', group, consumer, 'COUNT', batchSize, 'STREAMS', stream, after))) as
      [string, Entry[]][] | null;
    return reply?.[0]?.[1] ?? [];
  }

  /** Takes over entries pending longer than `claimIdleMs`, whoever holds them, and handles them. */
  private async claimIdle(): Promise<void> {
    const { redis, stream, group, consumer, claimIdleMs, batchSize } = this.options;
    let cursor = '0-0';
    do {
      const [next, entries] = (await redis.xautoclaim(
        stream,
        group,
        consumer,
        claimIdleMs,
        cursor,
        'COUNT',
        batchSize,
      )) as [string, Entry[], string[]];
      this.stats.claimed += entries.length;
      await this.handleAll(entries);
      cursor = next;
    } while (cursor !== '0-0' && !this.stopped);
  }

  private async handleAll(entries: Entry[]): Promise<void> {
    for (const [id, fields] of entries) {
      if (this.stopped) return;
      await this.handle(id, fields);
    }
  }

  private async handle(id: string, fields: string[] | null): Promise<void> {
    const { redis, stream, group, handler, log } = this.options;
    const ack = () => redis.xack(stream, group, id);
    // A pending entry trimmed from the stream since: nothing is left to handle.
    if (fields === null) return void (await ack());
    const parsed = parseEntry(fields);
    if ('problem' in parsed) {
      this.stats.unparseable++;
      log(`premium consumer: acknowledged unreadable entry ${id} without handling it: ${parsed.problem}`);
      return void (await ack());
    }
    const { event } = parsed;
    if (this.seen.has(event.eventId)) {
      this.stats.duplicates++;
      return void (await ack());
    }
    if (!this.memory.isCurrent(event) || (await this.supersededAtService(event))) {
      this.stats.outdated++;
      this.seen.add(event.eventId);
      return void (await ack());
    }
    try {
      await handler?.(event);
    } catch (error) {
      this.stats.handlerFailures++;
      log(
        `premium consumer: handler failed on ${event.type} ${event.eventId} (${(error as Error).message}); left pending`,
      );
      return;
    }
    this.memory.apply(targetOf(event), {
      expiresAt: new Date(event.expiresAt),
      version: event.version,
      slots: event.slots,
      tier: event.tier,
      features: event.features,
    });
    this.seen.add(event.eventId);
    this.stats.handled++;
    await ack();
  }

  /**
   * Whether the service holds a newer version of a record memory does not hold. The snapshot holds only
   * active records, so an event relayed late, after a newer one of its record reached the stream before
   * the group existed, would otherwise be applied. Only an event from before the snapshot can be that,
   * so only those are asked about. When the service cannot be asked, the event is taken as current: the
   * perks of a purchase are not held back by an outage of the API.
   */
  private async supersededAtService(event: PremiumEvent): Promise<boolean> {
    const { api, log } = this.options;
    const target = targetOf(event);
    if (!api || this.snapshotStartedAt === null || this.memory.get(target)) return false;
    if (Date.parse(event.occurredAt) >= this.snapshotStartedAt + CLOCK_SKEW_MS) return false;
    try {
      return (await currentVersion(api, target)) > event.version;
    } catch (error) {
      log(
        `premium consumer: could not ask the service about ${event.eventId} (${(error as Error).message}); taken as current`,
      );
      return false;
    }
  }
}
