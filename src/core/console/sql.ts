/** The console sessions' raw SQL. */

/** Records session $1 of operator $2 until $3, and forgets every session already past its end. */
export const START_SESSION = `
  WITH expired AS (DELETE FROM console_sessions WHERE expires_at < now())
  INSERT INTO console_sessions (id, operator_id, expires_at) VALUES ($1, $2, $3)`;

export const LIVE_SESSION = `SELECT 1 FROM console_sessions WHERE id = $1 AND operator_id = $2`;

export const END_SESSION = `DELETE FROM console_sessions WHERE id = $1`;
