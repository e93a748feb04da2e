import type { Core } from '../core';
import type { RedisClient } from '../redis/connection';

/** What the app (app.ts) hands every plugin and route it registers. */
export interface AppOptions {
  core: Core;
  /** For sign-in state and rate limits: the API never touches the events stream. */
  redis: RedisClient;
}
