import { isSettingName, parseSellerSettings, SECRET_NAMES } from '../config';
import { execute, selectRows } from '../db/database';
import { AppError } from '../errors';
import type { Core } from '../index';
import { isMessageName, messageProblem } from './messages';
import { forgetSettings, settingRows, variablesOf } from './read';
import { shownValue } from './shown';
import { DELETE_SETTING, INSERT_CHANGE, LOCK_SETTING, UPSERT_SETTING } from './sql';

/** A setting's new value, or null to unset it (back to its default). */
export type SettingChanges = Record<string, string | null>;

export interface SettingChange {
  name: string;
  oldValue: string | null;
  newValue: string | null;
}

function refuse(code: string, problems: { name: string; message: string }[]): never {
  const message = problems.map((problem) => `${problem.name}: ${problem.message}`).join('; ');
  throw AppError.validation(code, message, { problems });
}

/** Names that are neither a setting nor a message, and settings the environment sets (it wins). */
function checkNames(core: Pick<Core, 'config'>, names: string[]): void {
  if (names.length === 0)
    refuse('SETTING_UNKNOWN', [{ name: '(none)', message: 'name a setting to change' }]);
  const unknown = names.filter((name) => !isSettingName(name) && !isMessageName(name));
  if (unknown.length > 0)
    refuse(
      'SETTING_UNKNOWN',
      unknown.map((name) => ({
        name,
        message: (SECRET_NAMES as readonly string[]).includes(name)
          ? 'is a secret: it is set in the environment only'
          : 'is not a setting (premium settings list names them; a message is MESSAGE_<KEY>)',
      })),
    );
  const fromEnvironment = names.filter((name) => name in core.config.sellerVariables);
  if (fromEnvironment.length > 0)
    refuse(
      'SETTING_SET_BY_ENVIRONMENT',
      fromEnvironment.map((name) => ({
        name,
        message: 'is set by the environment, which wins: change it there (and restart)',
      })),
    );
}

/**
 * Changes settings together (roles' ROLE_GUILD_ID and TIER_ROLES are only valid as a pair) by the rules
 * the start applies to the environment, with the stored values and the environment's around them; an
 * audit row per changed name. A bad value changes nothing and names the rule it breaks.
 */
export async function changeSettings(
  core: Pick<Core, 'config' | 'sequelize'>,
  changes: SettingChanges,
  actor: string,
): Promise<SettingChange[]> {
  const names = Object.keys(changes);
  checkNames(core, names);
  const messageProblems = names.flatMap((name) => {
    const value = changes[name];
    const problem = isMessageName(name) && value != null ? messageProblem(value) : null;
    return problem ? [{ name, message: problem }] : [];
  });
  if (messageProblems.length > 0) refuse('SETTING_INVALID', messageProblems);
  const applied = await core.sequelize.transaction(async (transaction) => {
    const old = new Map<string, string | null>();
    for (const name of names.sort()) {
      const [row] = await selectRows<{ value: string }>(transaction, LOCK_SETTING, [name]);
      old.set(name, row?.value ?? null);
    }
    const rows = (await settingRows(transaction)).filter((row) => !(row.name in changes));
    const next = [
      ...rows,
      ...names.flatMap((name) => (changes[name] == null ? [] : [{ name, value: changes[name] }])),
    ];
    const parsed = parseSellerSettings(variablesOf(next, core.config));
    if (!parsed.ok) refuse('SETTING_INVALID', parsed.problems);
    const made: SettingChange[] = [];
    for (const name of names) {
      const [oldValue, newValue] = [old.get(name) ?? null, changes[name] ?? null];
      if (oldValue === newValue) continue;
      if (newValue === null) await execute(transaction, DELETE_SETTING, [name]);
      else await execute(transaction, UPSERT_SETTING, [name, newValue, actor]);
      await execute(transaction, INSERT_CHANGE, [
        name,
        shownValue(name, oldValue),
        shownValue(name, newValue),
        actor,
      ]);
      made.push({ name, oldValue: shownValue(name, oldValue), newValue: shownValue(name, newValue) });
    }
    return made;
  });
  forgetSettings(core.sequelize);
  return applied;
}
