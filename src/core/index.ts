import type { Sequelize } from 'sequelize';
import type { Config, DatabaseConfig } from './config';
import { connectDatabase, type DatabaseOptions } from './db/database';

/** What every entry point (server, worker, CLI) holds: the configuration and the database. */
export interface Core {
  config: Config;
  sequelize: Sequelize;
  close(): Promise<void>;
}

type CoreOptions = Pick<DatabaseOptions, 'poolMax' | 'warn'>;

export function createCore(config: Config, options: CoreOptions = {}): Core {
  const sequelize = openDatabase(config, options);
  return { config, sequelize, close: () => sequelize.close() };
}

/** The database alone, for a job that needs nothing else (the CLI's `db` commands). */
export function openDatabase(config: DatabaseConfig, options: CoreOptions = {}): Sequelize {
  return connectDatabase(config.databaseUrl, {
    ...options,
    preparedStatements: config.databasePreparedStatements,
  });
}
