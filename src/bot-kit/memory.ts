import { changesRecord, type PremiumEvent } from './events';

/** A guild by its id, or a user (their own premium) by their Discord id. */
export type Target = { guildId: string } | { providerId: string };

export interface HeldRecord {
  expiresAt: Date;
  version: number;
  slots: number;
}

export function targetOf(event: Pick<PremiumEvent, 'category' | 'guildId' | 'providerId'>): Target {
  return event.category === 'SERVER' ? { guildId: event.guildId! } : { providerId: event.providerId };
}

/**
 * Records kept column by column in typed arrays (expiry in ms, version, slots), found by key through a
 * Map of row numbers: about 100 bytes a record where an object with a Date per record took ~415.
 */
class RecordColumns {
  private readonly rows = new Map<string, number>();
  private expiresAt = new Float64Array(1024);
  private versions = new Uint32Array(1024);
  private slots = new Uint32Array(1024);

  row(key: string): number | undefined {
    return this.rows.get(key);
  }

  version(row: number): number {
    return this.versions[row]!;
  }

  expiresAtMs(row: number): number {
    return this.expiresAt[row]!;
  }

  record(row: number): HeldRecord {
    return {
      expiresAt: new Date(this.expiresAt[row]!),
      version: this.versions[row]!,
      slots: this.slots[row]!,
    };
  }

  set(key: string, record: HeldRecord): void {
    let row = this.rows.get(key);
    if (row === undefined) {
      row = this.rows.size;
      if (row === this.versions.length) this.grow();
      this.rows.set(key, row);
    }
    this.expiresAt[row] = record.expiresAt.getTime();
    this.versions[row] = record.version;
    this.slots[row] = record.slots;
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
  }
}

/**
 * What the bot knows of each record: the highest version it has applied. Whatever the order,
 * duplication or overlap of snapshot and stream, applying only newer versions converges on the
 * service's state, since every version carries its absolute expiry.
 */
export class PremiumMemory {
  private readonly guilds = new RecordColumns();
  private readonly users = new RecordColumns();

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
  apply(target: Target, record: HeldRecord): boolean {
    if (this.heldVersion(target) >= record.version) return false;
    const [columns, key] = this.columnsOf(target);
    columns.set(key, record);
    return true;
  }

  /**
   * Whether an event is news: a change (ADD, REMOVE) newer than the held version, or a notice
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
