/** The buyer messages' raw SQL: they wait in the work queue (docs/jobs.md) as jobs of one kind. */

/** The jobs' kind of the buyer's messages: each a Discord DM, and the job that queues its email. */
export const MESSAGE_JOB = 'buyer_message';

/** The jobs' kind of a message's email, queued by its message's job when the buyer gave an address. */
export const EMAIL_JOB = 'buyer_email';

/** The address user $1 (users.id) gave for the messages, or null. */
export const EMAIL_OF_USER = 'SELECT message_email AS email FROM users WHERE id = $1';

/** The address the buyer of Discord id $1 gave for the messages, or null. */
export const EMAIL_OF_BUYER = 'SELECT message_email AS email FROM users WHERE provider_id = $1';

/** User $1's address for the messages becomes $2 (null: none). */
export const SET_EMAIL = 'UPDATE users SET message_email = $2 WHERE id = $1';

/** The kinds user $1 (users.id) turned off. */
export const OPTED_OUT_KINDS = 'SELECT kind FROM message_opt_outs WHERE user_id = $1 ORDER BY kind';

/** Whether the user of Discord id $1 turned kind $2 off. */
export const OPTED_OUT = `
  SELECT 1 FROM message_opt_outs o JOIN users u ON u.id = o.user_id
  WHERE u.provider_id = $1 AND o.kind = $2`;

/** Turns kinds $2 off for user $1. */
export const OPT_OUT = `
  INSERT INTO message_opt_outs (user_id, kind) SELECT $1, unnest($2::text[])
  ON CONFLICT (user_id, kind) DO NOTHING`;

/** Turns kinds $2 on again for user $1. */
export const OPT_IN = 'DELETE FROM message_opt_outs WHERE user_id = $1 AND kind = ANY($2::text[])';

/** The latest $2 buyer messages and emails (jobs of kinds $1), newest first, of the buyer of Discord id $3 and of kind $4 when given. */
export const LIST_MESSAGES = `
  SELECT id, kind AS "job", state, payload, attempts, last_error AS "lastError", created_at AS "createdAt",
         finished_at AS "finishedAt"
  FROM jobs WHERE kind = ANY($1::text[]) AND ($3::text IS NULL OR payload->>'to' = $3)
    AND ($4::text IS NULL OR payload->>'kind' = $4)
  ORDER BY id DESC LIMIT $2`;
