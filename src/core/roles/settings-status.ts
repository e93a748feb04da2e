import type { Core } from '..';
import { readSettings, settingsStatus, type SettingsStatus } from '../settings';
import { botStanding } from './bot-standing';

/** The settings' status panel with, when roles are on, whether the bot can manage the tier roles. */
export async function settingsStatusNow(core: Pick<Core, 'config' | 'sequelize'>): Promise<SettingsStatus> {
  const settings = await readSettings(core);
  const status = settingsStatus(core.config, settings);
  if (settings.roles === null) return status;
  const bot = await botStanding(settings.roles, core.config.discord.apiUrl, core.config.providerTimeoutMs);
  return { ...status, roles: { ...status.roles, bot } };
}
