export { DiscordRest, DiscordRestError, type DiscordRestOptions } from './discord-rest';
export { GuildMembers } from './guild-members';
export { syncGuildRoles, type DriftProgress, type DriftReport } from './drift-sync';
export { ROLE_SYNC_JOB } from './sql';
export { NOT_A_MEMBER_REASON, syncRoles, syncUserNow, type UserSync } from './sync';
export { rolesStatus, unknownTierCodes, type RolesStatus } from './status';
export { botStanding } from './bot-standing';
export { settingsStatusNow } from './settings-status';
