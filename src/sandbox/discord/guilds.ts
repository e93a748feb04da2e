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

/** A guild of the sandbox's Discord: its roles (id → name) and its members with their role ids. */
export interface SandboxGuild {
  id: string;
  name: string;
  roles: Map<string, string>;
  members: Map<string, Set<string>>;
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
    this.guilds.set(id, { id, name, roles: new Map(Object.entries(roles)), members: new Map() });
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
