import type { Command } from 'commander';
import { isAppError } from '../../core/errors';
import type { SettingChange, SettingsList, SettingsStatus } from '../../core/settings';
import { UsageError } from '../errors';
import { fields, section, table, time } from '../format';
import { actorOption } from '../options';
import type { Session } from '../session';

type Core = typeof import('../../core/settings');
const settingsCore = () => require('../../core/settings') as Core;

const SOURCE_LABEL = { environment: 'set by the environment', settings: 'set', default: 'default' };

function statusFields(status: SettingsStatus): string {
  const { payments, gst, roles, notices, messages } = status;
  return fields([
    ['Payments', payments.sandbox ? 'the local sandbox' : `${payments.keys} keys`],
    [
      'GST',
      gst.on ? `on, GSTIN ${gst.gstin}${gst.lut ? ', LUT (exports zero-rated)' : ''}` : 'off (receipts)',
    ],
    ['Roles', roles.on ? `on, guild ${roles.guildId}, ${roles.tiers} tier role(s)` : 'off'],
    ...(roles.bot
      ? [
          ['Bot', roles.bot.canManage ? 'can manage the tier roles' : roles.bot.problems.join('; ')] as [
            string,
            string,
          ],
        ]
      : []),
    ['Notices', notices.on ? 'on' : 'off'],
    ['Messages', `${messages.count} set`],
  ]);
}

function renderList(list: SettingsList & { status: SettingsStatus }): string {
  const rows = [...list.settings, ...list.messages].map((setting) => [
    setting.name,
    setting.value ?? '-',
    SOURCE_LABEL[setting.source],
    setting.updatedBy ? `${setting.updatedBy}, ${time(setting.updatedAt)}` : '',
  ]);
  const parts = [statusFields(list.status), table(['NAME', 'VALUE', 'FROM', 'CHANGED'], rows)];
  if (list.problems.length > 0)
    parts.push(
      section(
        "Problems (the environment's values apply meanwhile)",
        list.problems.map((problem) => `${problem.name}: ${problem.message}`).join('\n'),
      ),
    );
  return parts.join('\n\n');
}

function renderChanges({ changed }: { changed: SettingChange[] }): string {
  if (changed.length === 0) return 'Nothing changed: the settings already hold these values.';
  return changed
    .map((change) => `${change.name}: ${change.oldValue ?? '(unset)'} -> ${change.newValue ?? '(unset)'}`)
    .join('\n');
}

/** A refused value changed nothing: a usage error (exit 2) naming the rule. */
async function change(
  session: Session,
  changes: Record<string, string | null>,
  actor: string,
): Promise<void> {
  try {
    const changed = await settingsCore().changeSettings(session.core(), changes, `cli:${actor}`);
    session.emit({ changed }, renderChanges);
  } catch (error) {
    if (isAppError(error) && error.kind === 'validation') throw new UsageError(error.message);
    throw error;
  }
}

/** `NAME value [NAME value …]`: roles' ROLE_GUILD_ID and TIER_ROLES are only valid as a pair. */
function pairsOf(name: string, value: string, more: string[]): Record<string, string> {
  if (more.length % 2 !== 0) throw new UsageError(`${more.at(-1)} has no value: give NAME value pairs`);
  const pairs: Record<string, string> = { [name]: value };
  for (let at = 0; at < more.length; at += 2) pairs[more[at]!] = more[at + 1]!;
  return pairs;
}

export function registerSettings(program: Command, session: Session): void {
  const settings = program
    .command('settings')
    .description("the seller's settings (docs/settings.md): list, set, unset; the environment's win");
  settings
    .command('list')
    .description('every setting, its value and where it comes from, what is on, and problems')
    .action(async () => {
      const core = session.core();
      const { settingsStatusNow } = require('../../core/roles') as typeof import('../../core/roles');
      const [list, status] = await Promise.all([settingsCore().listSettings(core), settingsStatusNow(core)]);
      session.emit({ ...list, status }, renderList);
    });
  settings
    .command('set')
    .description('set a setting (or several, NAME value pairs), by the rules the start applies')
    .argument('<NAME>', 'a setting (premium settings list) or a buyer message, MESSAGE_<KEY>')
    .argument('<value>', 'its value, as the environment variable would be written')
    .argument('[more...]', 'more NAME value pairs, changed together (ROLE_GUILD_ID … TIER_ROLES …)')
    .addOption(actorOption())
    .action(async (name: string, value: string, more: string[], options: { actor: string }) => {
      await change(session, pairsOf(name, value, more), options.actor);
    });
  settings
    .command('unset')
    .description('unset settings: back to the default (a message: removed)')
    .argument('<NAME...>', 'the settings to unset')
    .addOption(actorOption())
    .action(async (names: string[], options: { actor: string }) => {
      await change(session, Object.fromEntries(names.map((name) => [name, null])), options.actor);
    });
}
