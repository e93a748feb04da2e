import type { Migration } from '../src/core/db/migrator';

/**
 * Every pending outbox row's payload is a JSON object carrying the row's own eventId and type, which
 * consumers rely on: checked once when the row is written instead of by the relay at every claim, which
 * cost it about a tenth of its rate (docs/performance.md). A row the relay gave up on (dead) is exempt, so
 * that rows written before this check, set aside here as the relay would have, stay readable. Retrying one
 * (which makes it pending again) is refused by the same check.
 */
const WELL_FORMED = `COALESCE(jsonb_typeof(payload) = 'object' AND payload->>'eventId' = event_id::text
  AND payload->>'type' = type, false)`;

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    UPDATE outbox
    SET dead_at = now(), last_error = 'payload is not a JSON object carrying the row''s eventId and type'
    WHERE dead_at IS NULL AND NOT ${WELL_FORMED};
    ALTER TABLE outbox ADD CONSTRAINT outbox_payload_well_formed CHECK (dead_at IS NOT NULL OR ${WELL_FORMED});
  `);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE outbox DROP CONSTRAINT outbox_payload_well_formed');
};
