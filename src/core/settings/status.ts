import type { Config } from '../config';
import type { LiveSettings } from './read';

/** Whether the bot can give and take the tier roles, and why not (src/core/roles asks Discord). */
export interface BotStanding {
  canManage: boolean;
  problems: string[];
}

/** What is on, at a glance: the console's status panel, `premium settings list` and the start's log line. */
export interface SettingsStatus {
  /** Razorpay's keys: `rzp_live_` take real money, `rzp_test_` do not; `sandbox` is the local stand-in. */
  payments: { keys: 'live' | 'test' | 'other'; sandbox: boolean };
  gst: { on: boolean; gstin: string | null; lut: boolean };
  roles: { on: boolean; guildId: string | null; tiers: number; botToken: boolean; bot?: BotStanding };
  notices: { on: boolean };
  messages: { count: number };
  problems: LiveSettings['problems'];
}

export function settingsStatus(config: Config, settings: LiveSettings): SettingsStatus {
  const { keyId, apiUrl } = config.razorpay;
  const keys = keyId.startsWith('rzp_live_') ? 'live' : keyId.startsWith('rzp_test_') ? 'test' : 'other';
  return {
    payments: { keys, sandbox: config.nodeEnv !== 'production' && /\/razorpay$/.test(apiUrl) },
    gst: {
      on: settings.invoicing.sellerGstin !== null,
      gstin: settings.invoicing.sellerGstin,
      lut: settings.invoicing.lut !== null,
    },
    roles: {
      on: settings.roles !== null,
      guildId: settings.roles?.guildId ?? null,
      tiers: Object.keys(settings.roles?.tierRoles ?? {}).length,
      botToken: 'DISCORD_BOT_TOKEN' in config.sellerVariables,
    },
    notices: { on: settings.sellerNotices.webhookUrl !== null },
    messages: { count: Object.keys(settings.messages).length },
    problems: settings.problems,
  };
}

/** One line for the start's log: what is on (nothing said GST was). */
export function statusLine(status: SettingsStatus): string {
  const { payments, gst, roles, notices, messages } = status;
  return [
    `payments ${payments.sandbox ? 'sandbox' : payments.keys} keys`,
    gst.on ? `GST on (${gst.gstin}${gst.lut ? ', LUT' : ''})` : 'GST off (receipts)',
    roles.on ? `roles on (${roles.tiers} tier roles)` : 'roles off',
    `notices ${notices.on ? 'on' : 'off'}`,
    `${messages.count} buyer message(s)`,
    ...(status.problems.length > 0 ? [`${status.problems.length} setting problem(s)`] : []),
  ].join(', ');
}
