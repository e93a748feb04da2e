/** The seller's settings (docs/settings.md): stored, validated by the start's rules, audited, read live. */
export { changeSettings, type SettingChange, type SettingChanges } from './change';
export {
  listSettings,
  type ListedSetting,
  type SettingChangeRow,
  type SettingSource,
  type SettingsList,
} from './list';
export { MAX_MESSAGE_LENGTH } from './messages';
export {
  forgetSettings,
  readMessageSettings,
  readSettings,
  SETTINGS_CACHE_MS,
  type LiveSettings,
} from './read';
export { seedSettings } from './seed';
export { settingsStatus, statusLine, type BotStanding, type SettingsStatus } from './status';
