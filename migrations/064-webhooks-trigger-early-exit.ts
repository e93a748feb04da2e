import type { Migration } from '../src/core/db/migrator';

/** The function as migration 056 made it (down restores it). */
const ALWAYS_INSERTS = `
  CREATE OR REPLACE FUNCTION outbox_to_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.type !~ '_PREMIUM_(ADD|REMOVE|UPDATE)$' THEN RETURN NULL; END IF;
    WITH fresh AS (
      INSERT INTO webhook_deliveries (endpoint_id, event_id)
      SELECT id, NEW.event_id FROM webhook_endpoints
      WHERE disabled_at IS NULL AND 'premium_changed' = ANY (events)
      ON CONFLICT DO NOTHING
      RETURNING endpoint_id)
    INSERT INTO jobs (kind, payload, dedupe_key)
    SELECT 'webhook_delivery',
           jsonb_build_object('endpointId', endpoint_id, 'type', 'premium_changed', 'event', NEW.payload),
           'webhook:' || endpoint_id || ':' || NEW.event_id
    FROM fresh
    ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running') DO NOTHING;
    RETURN NULL;
  END $$`;

/**
 * The outbox's webhook trigger (056) returns at once when no enabled endpoint wants the event: before,
 * every premium change ran its two-insert statement, whose executor start (opening `jobs`' and
 * `webhook_deliveries`' indexes) cost about a tenth of the paid-and-grant statement's time even when no
 * endpoint exists, the common case (docs/performance.md). The look-up reads the few rows of
 * `webhook_endpoints`. Replacing a function takes no lock on `outbox`.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(
    ALWAYS_INSERTS.replace(
      'THEN RETURN NULL; END IF;',
      `THEN RETURN NULL; END IF;
    IF NOT EXISTS (SELECT 1 FROM webhook_endpoints
                   WHERE disabled_at IS NULL AND 'premium_changed' = ANY (events)) THEN
      RETURN NULL;
    END IF;`,
    ),
  );
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(ALWAYS_INSERTS);
};
