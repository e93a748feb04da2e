import type { Migration } from '../src/core/db/migrator';

/**
 * Webhooks to the seller's systems (docs/webhooks.md). `webhook_endpoints`: where to deliver, which
 * event types, the signing secret and, for 24 hours after a rotation, the one before it. A removed
 * endpoint keeps its row (`disabled_at`), so its deliveries stay readable. `webhook_deliveries` holds
 * one row per event per endpoint: its primary key is what makes an event delivered once to an endpoint
 * even when it is written twice. `webhook_attempts` is every try, with the answer cut to 1 KB.
 *
 * The trigger on `outbox` queues a `webhook_delivery` job per enabled endpoint that wants the event,
 * in the transaction that writes the event: every writer of the outbox (the grant and revoke
 * statements, the ledger, expiry, subscriptions, trials) is covered without each calling it, and the
 * relay, which only reads and settles the outbox, is not touched. With no endpoint it costs one empty
 * index scan. New tables and a trigger on an insert path: nothing a live service uses is locked for
 * long (CREATE TRIGGER takes a brief SHARE ROW EXCLUSIVE lock on `outbox`).
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS webhook_endpoints (
      id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      url             text NOT NULL,
      events          text[] NOT NULL,
      secret          text NOT NULL,
      previous_secret text,
      previous_until  timestamptz,
      created_by      text NOT NULL,
      created_at      timestamptz NOT NULL DEFAULT now(),
      disabled_at     timestamptz
    )`);
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS webhook_deliveries (
      endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (id),
      event_id    uuid NOT NULL,
      created_at  timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (endpoint_id, event_id)
    )`);
  await sequelize.query(`
    CREATE TABLE IF NOT EXISTS webhook_attempts (
      id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      endpoint_id  bigint NOT NULL REFERENCES webhook_endpoints (id),
      event_id     uuid NOT NULL,
      job_id       bigint NOT NULL,
      attempted_at timestamptz NOT NULL DEFAULT now(),
      status       integer,
      error        text,
      response     text CHECK (octet_length(response) <= 1024),
      duration_ms  integer NOT NULL
    )`);
  await sequelize.query(
    'CREATE INDEX IF NOT EXISTS webhook_attempts_by_endpoint ON webhook_attempts (endpoint_id, id DESC)',
  );
  // Housekeeping removes both after 30 days, through an index led by their time.
  await sequelize.query(
    'CREATE INDEX IF NOT EXISTS webhook_attempts_by_time ON webhook_attempts (attempted_at)',
  );
  await sequelize.query(
    'CREATE INDEX IF NOT EXISTS webhook_deliveries_by_time ON webhook_deliveries (created_at)',
  );
  await sequelize.query(`
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
    END $$`);
  await sequelize.query(`
    CREATE OR REPLACE TRIGGER outbox_to_webhooks AFTER INSERT ON outbox
    FOR EACH ROW EXECUTE FUNCTION outbox_to_webhooks()`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TRIGGER IF EXISTS outbox_to_webhooks ON outbox');
  await sequelize.query('DROP FUNCTION IF EXISTS outbox_to_webhooks()');
  await sequelize.query('DROP TABLE IF EXISTS webhook_attempts');
  await sequelize.query('DROP TABLE IF EXISTS webhook_deliveries');
  await sequelize.query('DROP TABLE IF EXISTS webhook_endpoints');
};
