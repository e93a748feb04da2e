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
 * What the bot knows of each record: the highest version it has applied. Whatever the order,
 * duplication or overlap of snapshot and stream, applying only newer versions converges on the
 * service's state, since every version carries its absolute expiry.
 */
export class PremiumMemory {
  private readonly guilds = new Map<string, HeldRecord>();
  private readonly users = new Map<string, HeldRecord>();

  private mapOf(target: Target): [Map<string, HeldRecord>, string] {
    return 'guildId' in target ? [this.guilds, target.guildId] : [this.users, target.providerId];
  }

  get(target: Target): HeldRecord | undefined {
    const [map, key] = this.mapOf(target);
    return map.get(key);
  }

  /** Keeps `record` when it is newer than what is held; says whether it was. */
  apply(target: Target, record: HeldRecord): boolean {
    const [map, key] = this.mapOf(target);
    if ((map.get(key)?.version ?? 0) >= record.version) return false;
    map.set(key, record);
    return true;
  }

  /**
   * Whether an event is news: a change (ADD, REMOVE) newer than the held version, or a notice
   * (EXPIRING, RENEWAL_FAILED) about the held version or a newer one. Anything else is outdated.
   */
  isCurrent(event: PremiumEvent): boolean {
    const held = this.get(targetOf(event))?.version ?? 0;
    return changesRecord(event) ? event.version > held : event.version >= held;
  }

  isPremium(target: Target, now = Date.now()): boolean {
    const record = this.get(target);
    return record !== undefined && record.expiresAt.getTime() > now;
  }

  /** Every record held, for a bot that wants to persist or inspect them. */
  entries(): { target: Target; record: HeldRecord }[] {
    return [
      ...[...this.guilds].map(([guildId, record]) => ({ target: { guildId }, record })),
      ...[...this.users].map(([providerId, record]) => ({ target: { providerId }, record })),
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
