import { changesRecord, type Features, type PremiumEvent } from './events';

/** A guild by its id, or a user (their own premium) by their Discord id. */
export type Target = { guildId: string } | { providerId: string };

export interface HeldRecord {
  expiresAt: Date;
  version: number;
  slots: number;
  /** The running tier the record's version announced; null when none (or from a service before tiers). */
  tier: string | null;
  /** That tier's features; `{}` when none. */
  features: Features;
}

/** What a snapshot item or an event says of a record; a service before tiers says nothing of them. */
export type RecordState = Omit<HeldRecord, 'tier' | 'features'> &
  Partial<Pick<HeldRecord, 'tier' | 'features'>>;

/** A tier and its features, kept once however many records run it. */
interface TierState {
  tier: string | null;
  features: Features;
}

/** The distinct (tier, features) pairs records run, each numbered once: a record keeps only the number. */
class TierStates {
  private readonly states: TierState[] = [{ tier: null, features: {} }];
  private readonly numbers = new Map<string, number>([[JSON.stringify([null, {}]), 0]]);
  /** The last pair numbered: a snapshot's records of one tier share one features object. */
  private last: { tier: string | null; features: Features; number: number } | null = null;

  numberOf(tier: string | null, features: Features): number {
    if (this.last?.tier === tier && this.last.features === features) return this.last.number;
    const key = JSON.stringify([tier, features]);
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.states.length;
      this.states.push({ tier, features });
      this.numbers.set(key, number);
    }
    this.last = { tier, features, number };
    return number;
  }

  state(number: number): TierState {
    return this.states[number]!;
  }
}

export function targetOf(event: Pick<PremiumEvent, 'category' | 'guildId' | 'providerId'>): Target {
  return event.category === 'SERVER' ? { guildId: event.guildId! } : { providerId: event.providerId };
}

/**
 * Records kept column by column in typed arrays (expiry in ms, version, slots, the number of its tier and
 * features among `tiers`), found by key through a Map of row numbers: about 100 bytes a record where an
 * object with a Date per record took ~415.
 */
class RecordColumns {
  private readonly rows = new Map<string, number>();
  private expiresAt = new Float64Array(1024);
  private versions = new Uint32Array(1024);
  private slots = new Uint32Array(1024);
  private tierNumbers = new Uint32Array(1024);

  constructor(private readonly tiers: TierStates) {}

  row(key: string): number | undefined {
    return this.rows.get(key);
  }

  version(row: number): number {
    return this.versions[row]!;
  }

  expiresAtMs(row: number): number {
    return this.expiresAt[row]!;
  }

  tierState(row: number): TierState {
    return this.tiers.state(this.tierNumbers[row]!);
  }

  record(row: number): HeldRecord {
    return {
      expiresAt: new Date(this.expiresAt[row]!),
      version: this.versions[row]!,
      slots: this.slots[row]!,
      ...this.tierState(row),
    };
  }

  /** Keeps `record` when it is newer than the row held for `key` (found once); says whether it was. */
  setIfNewer(key: string, record: RecordState): boolean {
    let row = this.rows.get(key);
    if (row !== undefined && this.versions[row]! >= record.version) return false;
    if (row === undefined) {
      row = this.rows.size;
      if (row === this.versions.length) this.grow();
      this.rows.set(key, row);
    }
    this.expiresAt[row] = record.expiresAt.getTime();
    this.versions[row] = record.version;
    this.slots[row] = record.slots;
    this.tierNumbers[row] = this.tiers.numberOf(record.tier ?? null, record.features ?? {});
    return true;
  }

  *entries(): Generator<[string, HeldRecord]> {
    for (const [key, row] of this.rows) yield [key, this.record(row)];
  }

  private grow(): void {
    const size = this.versions.length * 2;
    const grown = <T extends Float64Array | Uint32Array>(old: T, make: (size: number) => T): T => {
      const next = make(size);
      next.set(old);
      return next;
    };
    this.expiresAt = grown(this.expiresAt, (n) => new Float64Array(n));
    this.versions = grown(this.versions, (n) => new Uint32Array(n));
    this.slots = grown(this.slots, (n) => new Uint32Array(n));
    this.tierNumbers = grown(this.tierNumbers, (n) => new Uint32Array(n));
  }
}

/**
 * What the bot knows of each record: the highest version it has applied. Whatever the order,
 * duplication or overlap of snapshot and stream, applying only newer versions converges on the
 * service's state, since every version carries its absolute expiry.
 */
export class PremiumMemory {
  private readonly tiers = new TierStates();
  private readonly guilds = new RecordColumns(this.tiers);
  private readonly users = new RecordColumns(this.tiers);

  private columnsOf(target: Target): [RecordColumns, string] {
    return 'guildId' in target ? [this.guilds, target.guildId] : [this.users, target.providerId];
  }

  get(target: Target): HeldRecord | undefined {
    const [columns, key] = this.columnsOf(target);
    const row = columns.row(key);
    return row === undefined ? undefined : columns.record(row);
  }

  private heldVersion(target: Target): number {
    const [columns, key] = this.columnsOf(target);
    const row = columns.row(key);
    return row === undefined ? 0 : columns.version(row);
  }

  /** Keeps `record` when it is newer than what is held; says whether it was. */
  apply(target: Target, record: RecordState): boolean {
    const [columns, key] = this.columnsOf(target);
    return columns.setIfNewer(key, record);
  }

  /**
   * Whether an event is news: a change (ADD, REMOVE, UPDATE) newer than the held version, or a notice
   * (EXPIRING, RENEWAL_FAILED) about the held version or a newer one. Anything else is outdated.
   */
  isCurrent(event: PremiumEvent): boolean {
    const held = this.heldVersion(targetOf(event));
    return changesRecord(event) ? event.version > held : event.version >= held;
  }

  isPremium(target: Target, now = Date.now()): boolean {
    const [columns, key] = this.columnsOf(target);
    const row = columns.row(key);
    return row !== undefined && columns.expiresAtMs(row) > now;
  }

  /** The running tier and its features while the record is premium; none once it ran out. */
  running(target: Target, now = Date.now()): TierState {
    const [columns, key] = this.columnsOf(target);
    const row = columns.row(key);
    if (row === undefined || columns.expiresAtMs(row) <= now) return this.tiers.state(0);
    return columns.tierState(row);
  }

  /** Every record held, for a bot that wants to persist or inspect them. */
  entries(): { target: Target; record: HeldRecord }[] {
    return [
      ...[...this.guilds.entries()].map(([guildId, record]) => ({ target: { guildId }, record })),
      ...[...this.users.entries()].map(([providerId, record]) => ({ target: { providerId }, record })),
    ];
  }
}

/** The ids of the most recent events, at most `capacity`, oldest forgotten first. */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly capacity: number) {}

  has(id: string): boolean {
    return this.ids.has(id);
  }

  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.capacity) this.ids.delete(this.ids.values().next().value!);
  }
}
