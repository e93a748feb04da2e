import { groupOf, SETTING_NAMES, settingDefault, type SettingGroup } from '../config';
import { selectRows } from '../db/database';
import type { Core } from '../index';
import { isMessageName } from './messages';
import { liveSettingsOf, settingRows } from './read';
import { shownValue } from './shown';
import { RECENT_CHANGES } from './sql';

/** Where a setting's value comes from: the environment wins, then what was set, then the default. */
export type SettingSource = 'environment' | 'settings' | 'default';

export interface ListedSetting {
  name: string;
  /** Where the console shows it; a buyer message's is `Messages`. */
  group: SettingGroup | 'Messages';
  value: string | null;
  source: SettingSource;
  /** Set by the environment: changed there only. */
  readOnly: boolean;
  updatedBy: string | null;
  updatedAt: Date | null;
}

export interface SettingChangeRow {
  name: string;
  oldValue: string | null;
  newValue: string | null;
  changedBy: string;
  changedAt: Date;
}

export interface SettingsList {
  settings: ListedSetting[];
  messages: ListedSetting[];
  /** Rules the stored values break with the environment's (the environment's alone then apply). */
  problems: { name: string; message: string }[];
  changes: SettingChangeRow[];
}

const LISTED_CHANGES = 20;

/** Every setting with its value and source, the buyer's messages, and the latest changes. */
export async function listSettings(core: Pick<Core, 'config' | 'sequelize'>): Promise<SettingsList> {
  const [rows, changes] = await Promise.all([
    settingRows(core.sequelize),
    selectRows<SettingChangeRow>(core.sequelize, RECENT_CHANGES, [LISTED_CHANGES]),
  ]);
  const stored = new Map(rows.map((row) => [row.name, row]));
  const settings = SETTING_NAMES.map((name): ListedSetting => {
    const fromEnvironment = core.config.sellerVariables[name];
    const row = stored.get(name);
    const [value, source]: [string | null, SettingSource] =
      fromEnvironment !== undefined
        ? [fromEnvironment, 'environment']
        : row
          ? [row.value, 'settings']
          : [settingDefault(name), 'default'];
    return {
      name,
      group: groupOf(name),
      value: shownValue(name, value),
      source,
      readOnly: source === 'environment',
      updatedBy: source === 'settings' ? row!.updatedBy : null,
      updatedAt: source === 'settings' ? row!.updatedAt : null,
    };
  });
  const messages = rows
    .filter((row) => isMessageName(row.name))
    .map((row): ListedSetting => ({ ...row, group: 'Messages', source: 'settings', readOnly: false }));
  return { settings, messages, problems: liveSettingsOf(rows, core.config).problems, changes };
}
