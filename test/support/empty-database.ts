import { Sequelize } from 'sequelize';
import { createDatabase, databaseUrl, dropDatabase } from './databases';

/**
 * A database of this test file's own, empty (no migration run), for tests of the migrations themselves:
 * created before the file's tests and dropped after them. Returns the connection.
 */
export function useEmptyDatabase(label: string): () => Sequelize {
  const name = `${process.env.TEST_RUN_ID}_${label}_${process.env.JEST_WORKER_ID}`;
  let sequelize: Sequelize;
  beforeAll(async () => {
    await createDatabase(name);
    sequelize = new Sequelize(databaseUrl(name), { dialect: 'postgres', logging: false });
  });
  afterAll(async () => {
    await sequelize.close();
    await dropDatabase(name);
  });
  return () => sequelize;
}
