import { dropDatabasesWithPrefix } from './databases';

export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_RUN_ID) await dropDatabasesWithPrefix(process.env.TEST_RUN_ID);
}
