import type { Sequelize } from 'sequelize';
import {
  isSettingName,
  parseSellerSettings,
  SETTING_GROUPS,
  type Config,
  type SellerSettings,
} from '../config';
import { selectRows, type Runner } from '../db/database';
import type { Core } from '../index';
import { isMessageName } from './messages';
import { SETTING_ROWS } from './sql';

export interface SettingRow {
  name: string;
  value: string;
  updatedBy: string;
  updatedAt: Date;
}

/** What the code that uses the settings reads: the configured pieces and the buyer's message texts. */
export interface LiveSettings extends SellerSettings {
  /** By key (MESSAGE_THANKS is `THANKS`). */
  messages: Record<string, string>;
  /** The rules the stored values break together with the environment's (then the environment's alone hold). */
  problems: { name: string; message: string }[];
}

/**
 * How long a process keeps what it read. A change made in this process is seen at once (the write
 * drops the cache); one made by another process (the console on the API, the CLI, the worker) within
 * this long.
 */
export const SETTINGS_CACHE_MS = 5000;

export function settingRows(runner: Runner): Promise<SettingRow[]> {
  return selectRows<SettingRow>(runner, SETTING_ROWS);
}

/** The variables the rules read: the stored settings, each overridden by the environment where it is set. */
export function variablesOf(
  rows: Pick<SettingRow, 'name' | 'value'>[],
  config: Config,
): Record<string, string> {
  const stored = rows.filter((row) => isSettingName(row.name)).map((row) => [row.name, row.value]);
  return { ...Object.fromEntries(stored), ...config.sellerVariables };
}

/**
 * The settings from the stored rows and the environment. When the two break a rule together (the
 * environment changed since the values were stored), the stored values of one group (store, GST, roles,
 * notices) are left out, the first group whose leaving out mends it; failing that, the environment's
 * alone apply. Either way the problems are reported.
 */
export function liveSettingsOf(rows: Pick<SettingRow, 'name' | 'value'>[], config: Config): LiveSettings {
  const messages = Object.fromEntries(
    rows
      .filter((row) => isMessageName(row.name))
      .map((row) => [row.name.slice('MESSAGE_'.length), row.value]),
  );
  const parsed = parseSellerSettings(variablesOf(rows, config));
  if (parsed.ok) return { ...parsed.settings, messages, problems: [] };
  for (const names of Object.values<readonly string[]>(SETTING_GROUPS)) {
    const mended = parseSellerSettings(
      variablesOf(
        rows.filter((row) => !names.includes(row.name)),
        config,
      ),
    );
    if (mended.ok) return { ...mended.settings, messages, problems: parsed.problems };
  }
  const { store, invoicing, sellerNotices, roles, buyerMessages } = config;
  return { store, invoicing, sellerNotices, roles, buyerMessages, messages, problems: parsed.problems };
}

const cache = new WeakMap<Sequelize, { readAt: number; settings: Promise<LiveSettings> }>();

/**
 * The settings now (SETTINGS_CACHE_MS at most behind another process's change). A caller inside a
 * transaction passes it, so that the read takes no second connection from the pool.
 */
export function readSettings(
  core: Pick<Core, 'config' | 'sequelize'>,
  runner: Runner = core.sequelize,
): Promise<LiveSettings> {
  const cached = cache.get(core.sequelize);
  if (cached && Date.now() - cached.readAt < SETTINGS_CACHE_MS) return cached.settings;
  const settings = settingRows(runner).then((rows) => liveSettingsOf(rows, core.config));
  cache.set(core.sequelize, { readAt: Date.now(), settings });
  settings.catch(() => {
    if (cache.get(core.sequelize)?.settings === settings) cache.delete(core.sequelize);
  });
  return settings;
}

export function forgetSettings(sequelize: Sequelize): void {
  cache.delete(sequelize);
}

/** What the buyer's messages read of the settings now: the seller's texts, the win-back offer, the store's name. */
export async function readMessageSettings(
  core: Pick<Core, 'config' | 'sequelize'>,
): Promise<{ messages: Record<string, string>; winbackOffer: string | null; storeName: string }> {
  const { messages, buyerMessages, store } = await readSettings(core);
  return { messages, winbackOffer: buyerMessages.winbackOffer, storeName: store.name };
}
