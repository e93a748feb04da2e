export interface SandboxDiscordGuild {
  id: string;
  name: string;
  icon: string | null;
  owner: boolean;
  /** The user's permission bitfield in the guild, as a decimal string (as Discord sends it). */
  permissions: string;
}

export interface SandboxDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar: string | null;
  guilds: SandboxDiscordGuild[];
}

/** Who signs in until a test or developer sets someone else: owner of one guild, manager of another. */
export const DEMO_USER: SandboxDiscordUser = {
  id: '80351110224678912',
  username: 'sandbox_demo',
  global_name: 'Sandbox Demo',
  avatar: null,
  guilds: [
    {
      id: '613425648685547541',
      name: 'Demo Owned Server',
      icon: null,
      owner: true,
      permissions: '2251799813685247',
    },
    {
      id: '613425648685547542',
      name: 'Demo Managed Server',
      icon: null,
      owner: false,
      permissions: '1071698660961',
    },
    {
      id: '613425648685547543',
      name: 'Demo Member Server',
      icon: null,
      owner: false,
      permissions: '104324673',
    },
  ],
};

/** `GET /users/@me` as Discord answers it with the `identify` scope. */
export function userResource(user: SandboxDiscordUser) {
  return {
    id: user.id,
    username: user.username,
    global_name: user.global_name ?? null,
    avatar: user.avatar,
    discriminator: '0',
    public_flags: 0,
    flags: 0,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    banner_color: null,
    locale: 'en-US',
    mfa_enabled: false,
    premium_type: 0,
  };
}

/** `GET /users/@me/guilds` as Discord answers it. */
export function guildResources(user: SandboxDiscordUser) {
  return user.guilds.map((guild) => ({ ...guild, banner: null, features: [] as string[] }));
}
