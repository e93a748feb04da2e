import { DEMO_USER } from './users';

/** The bot token the sandbox's guild endpoints take when the options name none. */
export const SANDBOX_BOT_TOKEN = 'sandbox-bot-token';

/**
 * The seller's guild `npm run dev` starts with (the demo user's own server), its two tier roles, and the
 * demo user a member: a purchase on the demo page shows its role at /discord/sandbox/guilds/<id>.
 */
export const DEMO_ROLE_GUILD = {
  id: DEMO_USER.guilds[0]!.id,
  name: DEMO_USER.guilds[0]!.name,
  roles: { '613425648685547601': 'Premium', '613425648685547602': 'Pro' },
  tierRoles: 'premium=613425648685547601,pro=613425648685547602',
} as const;

/** The sandbox's bot user: what `GET /users/@me` answers with the bot token. */
export const SANDBOX_BOT_USER = { id: '613425648685540001', username: 'sandbox-bot', bot: true } as const;

/** Discord's permission bit for giving and taking roles. */
const MANAGE_ROLES = 1n << 28n;

/**
 * The bot's own role in a guild: its position among the guild's roles (the tier roles are 1, 2, … in
 * the order given) and whether it has Manage Roles. By default above them all, with the permission.
 */
export interface SandboxBotRole {
  id: string;
  position: number;
  manageRoles: boolean;
}

/** A guild of the sandbox's Discord: its roles (id → name), its members with their role ids, the bot's role. */
export interface SandboxGuild {
  id: string;
  name: string;
  roles: Map<string, string>;
  members: Map<string, Set<string>>;
  bot: SandboxBotRole;
}

/** A role given or taken through the API, with the audit-log reason the bot sent. */
export interface RoleAudit {
  guildId: string;
  userId: string;
  roleId: string;
  action: 'add' | 'remove';
  reason: string | null;
}

/** The guilds the bot is in, their roles and members: what the role endpoints read and change. */
export class SandboxGuilds {
  private readonly guilds = new Map<string, SandboxGuild>();
  audit: RoleAudit[] = [];

  /** A new guild, or one made anew: no member, and none of its old audit entries. */
  create(id: string, name: string, roles: Record<string, string>): void {
    const bot = { id: `${id.slice(0, -2)}99`, position: Object.keys(roles).length + 1, manageRoles: true };
    this.guilds.set(id, { id, name, roles: new Map(Object.entries(roles)), members: new Map(), bot });
    this.audit = this.audit.filter((entry) => entry.guildId !== id);
  }

  get(id: string): SandboxGuild | undefined {
    return this.guilds.get(id);
  }

  join(guildId: string, userId: string, roles: string[] = []): void {
    this.required(guildId).members.set(userId, new Set(roles));
  }

  leave(guildId: string, userId: string): void {
    this.required(guildId).members.delete(userId);
  }

  /** Moves the bot's role (position 0: below every tier role) or takes its Manage Roles. */
  setBotRole(guildId: string, change: Partial<Omit<SandboxBotRole, 'id'>>): void {
    const guild = this.required(guildId);
    guild.bot = { ...guild.bot, ...change };
  }

  /** `GET /guilds/:guild/roles` as Discord answers it: @everyone, the roles in order, the bot's role. */
  roleResources(guildId: string) {
    const { roles, bot } = this.required(guildId);
    return [
      { id: guildId, name: '@everyone', position: 0, permissions: '0', managed: false },
      ...[...roles].map(([id, name], index) => ({
        id,
        name,
        position: index + 1,
        permissions: '0',
        managed: false,
      })),
      {
        id: bot.id,
        name: 'Sandbox Bot',
        position: bot.position,
        permissions: String(bot.manageRoles ? MANAGE_ROLES : 0n),
        managed: true,
      },
    ];
  }

  /** The member's role ids, sorted; null when they are not a member. */
  memberRoles(guildId: string, userId: string): string[] | null {
    const roles = this.required(guildId).members.get(userId);
    return roles ? [...roles].sort() : null;
  }

  /** The guild as the sandbox's JSON page shows it: each role with its members. */
  view(guildId: string) {
    const guild = this.required(guildId);
    return {
      id: guild.id,
      name: guild.name,
      roles: [...guild.roles].map(([id, name]) => ({
        id,
        name,
        members: [...guild.members].filter(([, roles]) => roles.has(id)).map(([userId]) => userId),
      })),
      members: [...guild.members].map(([userId, roles]) => ({ userId, roles: [...roles].sort() })),
    };
  }

  private required(guildId: string): SandboxGuild {
    const guild = this.guilds.get(guildId);
    if (!guild) throw new Error(`the sandbox has no guild ${guildId}`);
    return guild;
  }
}
