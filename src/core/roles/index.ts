export { DiscordRest, DiscordRestError, type DiscordRestOptions } from './discord-rest';
export { GuildMembers } from './guild-members';
export { syncGuildRoles, type DriftProgress, type DriftReport } from './drift-sync';
export { drainRoleSyncs, syncUserNow, type DrainReport, type UserSync } from './queue';
export { rolesStatus, unknownTierCodes, type RolesStatus } from './status';
export { botStanding } from './bot-standing';
export { settingsStatusNow } from './settings-status';
