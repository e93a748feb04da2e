import type { z } from 'zod';
import { fields, type Env } from './fields';
import { checkSellerNotices } from './seller-notices';
import type { Config } from './types';

/**
 * The settings a seller may change while selling (the console's #/settings, `premium settings`): the
 * database holds them, an environment variable of the same name seeds and overrides each. Secrets are
 * never among them.
 */
export const SETTING_GROUPS = {
  Store: ['STORE_NAME', 'STORE_SUPPORT_URL'],
  GST: [
    'SELLER_NAME',
    'SELLER_ADDRESS',
    'SELLER_GSTIN',
    'GST_RATE_PERCENT',
    'GST_SAC',
    'SELLER_LUT',
    'INVOICE_PREFIX',
    'CREDIT_NOTE_PREFIX',
  ],
  Roles: ['ROLE_GUILD_ID', 'TIER_ROLES'],
  Notices: ['SELLER_DISCORD_WEBHOOK_URL'],
  Messages: ['WINBACK_OFFER'],
} as const;

export type SettingGroup = keyof typeof SETTING_GROUPS;

export const SETTING_NAMES = Object.values(SETTING_GROUPS).flat();

export type SettingName = (typeof SETTING_NAMES)[number];

export function groupOf(name: SettingName): SettingGroup {
  return (Object.keys(SETTING_GROUPS) as SettingGroup[]).find((group) =>
    (SETTING_GROUPS[group] as readonly string[]).includes(name),
  )!;
}

export function isSettingName(name: string): name is SettingName {
  return (SETTING_NAMES as readonly string[]).includes(name);
}

/** The variables besides the settings that their rules read (environment only). */
const COMPANIONS = ['NODE_ENV', 'STORE_PUBLIC', 'SELLER_NOTICES_PER_MINUTE', 'DISCORD_BOT_TOKEN'] as const;

export const SELLER_VARIABLES: readonly string[] = [...SETTING_NAMES, ...COMPANIONS];

type SellerVariable = SettingName | (typeof COMPANIONS)[number];
type SellerEnv = Pick<Env, SellerVariable>;

/** What the settings configure: the store's brand, the tax invoices, the seller's notices, the roles, the buyer's messages. */
export type SellerSettings = Pick<
  Config,
  'store' | 'invoicing' | 'sellerNotices' | 'roles' | 'buyerMessages'
>;

/** A GST-registered seller's invoices name the seller; the two series must not share a prefix. */
function checkSeller<E extends SellerEnv>(env: E, ctx: z.RefinementCtx<E>): void {
  if (env.SELLER_GSTIN !== undefined) {
    for (const name of ['SELLER_NAME', 'SELLER_ADDRESS'] as const) {
      if (env[name] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is required with SELLER_GSTIN (a tax invoice names its seller)',
        });
    }
  }
  const prefixes = [env.INVOICE_PREFIX, env.CREDIT_NOTE_PREFIX].map((prefix) => prefix.toUpperCase());
  if (prefixes[0] === prefixes[1] || prefixes.includes('RCPT'))
    ctx.addIssue({
      code: 'custom',
      path: ['CREDIT_NOTE_PREFIX'],
      message: `must differ from INVOICE_PREFIX and from RCPT (the receipts'): each series is numbered on its own`,
    });
}

const ROLE_SETTINGS = ['DISCORD_BOT_TOKEN', 'ROLE_GUILD_ID', 'TIER_ROLES'] as const;

/**
 * Roles are on with all three settings and off without the guild and the tier roles; a partial set is a
 * mistake, not "off". The bot token alone is no mistake: it waits for the guild and the tier roles, which
 * the settings may give.
 */
function checkRoles<E extends SellerEnv>(env: E, ctx: z.RefinementCtx<E>): void {
  if (env.ROLE_GUILD_ID === undefined && env.TIER_ROLES === undefined) return;
  const missing = ROLE_SETTINGS.filter((name) => env[name] === undefined);
  const given = ROLE_SETTINGS.filter((name) => !missing.includes(name)).join(' and ');
  for (const name of missing)
    ctx.addIssue({
      code: 'custom',
      path: [name],
      message: `is required with ${given} (roles need all of ${ROLE_SETTINGS.join(', ')}; docs/roles.md)`,
    });
}

/** The rules across the seller's variables; the start's schema runs them too, so there is one rule. */
export function checkSellerSettings<E extends SellerEnv>(env: E, ctx: z.RefinementCtx<E>): void {
  checkSeller(env, ctx);
  checkSellerNotices(env, ctx);
  checkRoles(env, ctx);
}

export function sellerSettingsOf(e: SellerEnv): SellerSettings {
  return {
    store: { public: e.STORE_PUBLIC, name: e.STORE_NAME, supportUrl: e.STORE_SUPPORT_URL ?? null },
    invoicing: {
      sellerGstin: e.SELLER_GSTIN ?? null,
      sellerName: e.SELLER_NAME ?? null,
      sellerAddress: e.SELLER_ADDRESS ?? null,
      ratePercent: e.GST_RATE_PERCENT,
      sac: e.GST_SAC,
      lut: e.SELLER_LUT ?? null,
      invoicePrefix: e.INVOICE_PREFIX,
      creditNotePrefix: e.CREDIT_NOTE_PREFIX,
    },
    sellerNotices: {
      webhookUrl: e.SELLER_DISCORD_WEBHOOK_URL ?? null,
      perMinute: e.SELLER_NOTICES_PER_MINUTE,
    },
    buyerMessages: { winbackOffer: e.WINBACK_OFFER ?? null },
    roles:
      e.DISCORD_BOT_TOKEN && e.ROLE_GUILD_ID && e.TIER_ROLES
        ? { botToken: e.DISCORD_BOT_TOKEN, guildId: e.ROLE_GUILD_ID, tierRoles: e.TIER_ROLES }
        : null,
  };
}

const sellerSchema = fields
  .pick(Object.fromEntries(SELLER_VARIABLES.map((name) => [name, true])) as Record<SellerVariable, true>)
  .superRefine(checkSellerSettings);

export type SellerSettingsParse =
  { ok: true; settings: SellerSettings } | { ok: false; problems: { name: string; message: string }[] };

/**
 * The seller's variables (as the environment spells them, unset ones absent) through the same rules as
 * at start: the settings, or every problem by name.
 */
export function parseSellerSettings(variables: Record<string, string>): SellerSettingsParse {
  const parsed = sellerSchema.safeParse(variables);
  if (parsed.success) return { ok: true, settings: sellerSettingsOf(parsed.data) };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({ name: issue.path.join('.'), message: issue.message })),
  };
}

/** What a setting is when neither the environment nor the database sets it (null: unset, off). */
export function settingDefault(name: SettingName): string | null {
  const parsed = fields.shape[name].safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? String(parsed.data) : null;
}
