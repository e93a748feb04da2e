import type { Migration } from '../src/core/db/migrator';

const WANTED = `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE disabled_at IS NULL AND event_type = ANY (events))`;

/**
 * `webhook_wanted` (066), asked by every money trigger even when no endpoint exists, becomes PL/pgSQL. As
 * a SQL function whose body holds a sub-select it is never inlined, and PostgreSQL plans such a function's
 * body afresh on every call: about 60 µs each, twice per verified payment (its `sale` and its `invoice`).
 * A PL/pgSQL body keeps its plan for the session. Same answer; replacing a function locks no table.
 */
export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE OR REPLACE FUNCTION webhook_wanted(event_type text) RETURNS boolean LANGUAGE plpgsql STABLE AS $$
    BEGIN
      RETURN (${WANTED});
    END $$`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    CREATE OR REPLACE FUNCTION webhook_wanted(event_type text) RETURNS boolean LANGUAGE sql STABLE
    AS $$ ${WANTED} $$`);
};
