import type { Sequelize } from 'sequelize';
import type { Config } from './config';
import { connectDatabase, type DatabaseOptions } from './db/database';

/** What every entry point (server, worker, CLI) holds: the configuration and the database. */
export interface Core {
  config: Config;
  sequelize: Sequelize;
  close(): Promise<void>;
}

export function createCore(config: Config, options: Pick<DatabaseOptions, 'poolMax' | 'warn'> = {}): Core {
  const sequelize = connectDatabase(config.databaseUrl, {
    ...options,
    preparedStatements: config.databasePreparedStatements,
  });
  return { config, sequelize, close: () => sequelize.close() };
}
