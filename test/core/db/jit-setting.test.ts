import { createCore, type Core } from '../../../src/core';
import { testConfig } from '../../support/context';

/** The JIT setting of a session of the core's pool, and where it came from. */
async function jitOf(core: Core): Promise<{ setting: string; source: string }> {
  const [rows] = await core.sequelize.query("SELECT setting, source FROM pg_settings WHERE name = 'jit'");
  return (rows as { setting: string; source: string }[])[0]!;
}

describe("PostgreSQL's JIT on the service's connections", () => {
  const cores: Core[] = [];
  const open = (options: Parameters<typeof createCore>[1]) => {
    const core = createCore(testConfig(), options);
    cores.push(core);
    return core;
  };
  afterAll(() => Promise.all(cores.map((core) => core.close())));

  it('is off on every session of a core opened with jit: false (the CLI), set by the connection', async () => {
    const core = open({ poolMax: 2, jit: false });

    const sessions = await Promise.all([jitOf(core), jitOf(core), jitOf(core)]);

    expect(sessions).toEqual(Array(3).fill({ setting: 'off', source: 'client' }));
  });

  it("is the server's own on a core opened without it (the API, the worker)", async () => {
    const core = open({ poolMax: 1 });

    expect((await jitOf(core)).source).not.toBe('client');
  });
});
