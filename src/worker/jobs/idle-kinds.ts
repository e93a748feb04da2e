import type { Core } from '../../core';
import { MESSAGE_JOB } from '../../core/buyer-messages';
import { ROLE_SYNC_JOB } from '../../core/roles';
import { NOTICE_JOB } from '../../core/seller-notices';
import { readSettings } from '../../core/settings';

/**
 * The work queue's kinds nothing runs while the settings are as they are now: the seller's notices
 * without SELLER_DISCORD_WEBHOOK_URL, the buyers' DMs without DISCORD_BOT_TOKEN, role syncs with roles off.
 */
export async function idleJobKinds(core: Pick<Core, 'config' | 'sequelize'>): Promise<string[]> {
  const settings = await readSettings(core);
  return [
    ...(settings.sellerNotices.webhookUrl === null ? [NOTICE_JOB] : []),
    ...(core.config.sellerVariables.DISCORD_BOT_TOKEN === undefined ? [MESSAGE_JOB] : []),
    ...(settings.roles === null ? [ROLE_SYNC_JOB] : []),
  ];
}
