import { Session } from '../../src/cli/session';
import { useTestCore, workerDatabaseUrl } from '../support/context';

useTestCore();

// What `premium report subscribers` spends its start on (docs/performance.md, "CLI start").
describe('premium report subscribers starts with what it needs', () => {
  it("runs the command's statements without PostgreSQL's JIT", async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = workerDatabaseUrl();
    const session = new Session(() => ({}));
    try {
      const [rows] = await session.core().sequelize.query("SELECT current_setting('jit') AS jit");

      expect(rows).toEqual([{ jit: 'off' }]);
    } finally {
      await session.close();
      process.env.DATABASE_URL = saved;
    }
  });
});
