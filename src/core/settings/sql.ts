/** The settings' raw SQL (migration 050). Statements take `$n` bind parameters. */

export const SETTING_ROWS = `
  SELECT name, value, updated_by AS "updatedBy", updated_at AS "updatedAt" FROM settings ORDER BY name`;

/** The row of $1, locked until the change's transaction ends, so two changes of one name queue. */
export const LOCK_SETTING = 'SELECT value FROM settings WHERE name = $1 FOR UPDATE';

export const UPSERT_SETTING = `
  INSERT INTO settings (name, value, updated_by) VALUES ($1, $2, $3)
  ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()`;

export const DELETE_SETTING = 'DELETE FROM settings WHERE name = $1';

/** Seeds $1 with $2 unless it has a row; returns the name when it was inserted. */
export const SEED_SETTING = `
  INSERT INTO settings (name, value, updated_by) VALUES ($1, $2, 'environment')
  ON CONFLICT (name) DO NOTHING RETURNING name`;

export const INSERT_CHANGE = `
  INSERT INTO setting_changes (name, old_value, new_value, changed_by) VALUES ($1, $2, $3, $4)`;

export const RECENT_CHANGES = `
  SELECT name, old_value AS "oldValue", new_value AS "newValue", changed_by AS "changedBy",
         changed_at AS "changedAt"
  FROM setting_changes ORDER BY changed_at DESC, id DESC LIMIT $1`;
