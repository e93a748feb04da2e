/**
 * Every setting: the environment variables, validated at start with every problem reported at once, and
 * the Config the processes get (docs/configuration.md).
 */
export { ConfigError, loadConfig, loadDatabaseConfig, loadDotEnv, type DatabaseConfig } from './load';
export { isLoopback } from './listeners';
export { SECRET_NAMES } from './secrets';
export type { Config, InvoiceSettings, RoleSettings } from './types';
export {
  groupOf,
  isSettingName,
  SETTING_GROUPS,
  parseSellerSettings,
  SETTING_NAMES,
  settingDefault,
  type SellerSettings,
  type SellerSettingsParse,
  type SettingGroup,
  type SettingName,
} from './seller-settings';
