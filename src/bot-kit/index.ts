/**
 * The bot kit: what a TypeScript bot imports to follow premium (docs/events.md). Depends on nothing
 * but the ioredis client the bot gives it and Node's global fetch.
 */
export { PremiumConsumer, type ConsumerStats, type PremiumConsumerOptions } from './consumer';
export {
  EVENT_TYPES,
  parseEntry,
  type Category,
  type Features,
  type PremiumAdded,
  type PremiumEvent,
  type PremiumEventType,
  type PremiumExpiring,
  type PremiumRemoved,
  type PremiumUpdated,
  type RenewalFailed,
} from './events';
export type { HeldRecord, RecordState, Target } from './memory';
export type { BotApi } from './snapshot';
