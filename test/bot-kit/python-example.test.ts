import { spawn } from 'node:child_process';
import { seedPlan } from '../support/fixtures';
import { once } from 'node:events';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { grantPremium } from '../../src/core/premium/grant';
import type { PremiumChange } from '../../src/core/premium/types';
import { useTestApp } from '../support/app';
import { createUser, grantRequest, snowflake } from '../support/fixtures';
import { describeNeeding, PYTHON_REDIS } from '../support/requirements';
import { pollUntil } from '../support/wait';
import { useRelays } from '../support/relays';

const TOKEN = 'bot-token-of-the-python-example-0123456789';
const GROUP = 'python-bot';
const CONSUMER = 'shard-0';

/** The Python block of docs/events.md, as a reader would copy it. */
function pythonExample(): string {
  const events = fs.readFileSync(path.resolve(__dirname, '../../docs/events.md'), 'utf8');
  const section = events.slice(events.indexOf('## Python'));
  const [, code] = /```python\n([\s\S]*?)```/.exec(section) ?? [];
  if (!code) throw new Error('docs/events.md has no Python example');
  return code;
}

/**
 * Loads the example as a module (its `run()` loops forever) and calls its steps in `run()`'s order, with
 * `on_event` recording and entries claimable at once. Prints what it holds after the snapshot, waits for
 * a line on stdin (the test prepares the stream), consumes, and prints what it holds and handled.
 */
const DRIVER = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("bot", sys.argv[1])
bot = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bot)
handled = []
bot.on_event = handled.append
bot.CLAIM_IDLE_MS = 0

def report():
    held = {f"{c}:{k}": list(v) for (c, k), v in bot.held.items()}
    music = sorted(f"{c}:{k}" for (c, k) in bot.held if bot.has_feature((c, k), "music"))
    print(json.dumps({"held": held, "music": music, "handled": [event["eventId"] for event in handled]}), flush=True)

bot.join()
bot.load_snapshot()
report()
sys.stdin.readline()
bot.read_own_pending()
bot.claim_abandoned()
bot.read_new(block_ms=200)
report()
`;

interface Report {
  held: Record<string, [number, string, string | null, Record<string, unknown>]>;
  /** The records `has_feature(k, "music")` answers true for. */
  music: string[];
  handled: string[];
}

describeNeeding(PYTHON_REDIS, "docs/events.md's Python consumer", (python) => {
  const getApp = useTestApp({ BOT_API_TOKEN: TOKEN });
  const startRelay = useRelays();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'premium-python-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The example's process: `next()` is its next report, `proceed()` lets it consume. */
  function startExample() {
    const { app, core } = getApp();
    const example = path.join(dir, 'bot.py');
    fs.writeFileSync(example, pythonExample());
    fs.writeFileSync(path.join(dir, 'driver.py'), DRIVER);
    const { port } = app.server.address() as AddressInfo;
    const child = spawn(python, [path.join(dir, 'driver.py'), example], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: {
        ...process.env,
        REDIS_URL: core.config.redisUrl,
        EVENTS_STREAM: core.config.eventsStream,
        GROUP,
        CONSUMER,
        API_URL: `http://127.0.0.1:${port}`,
        BOT_API_TOKEN: TOKEN,
      },
    });
    const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    return {
      next: async (): Promise<Report> => {
        const line = await lines.next();
        if (line.done) throw new Error(`the example exited (${child.exitCode})`);
        return JSON.parse(line.value) as Report;
      },
      proceed: () => child.stdin.write('\n'),
      exited: () => (child.exitCode === null ? once(child, 'exit').then(([code]) => code) : child.exitCode),
    };
  }

  it('starts from the snapshot, then applies its own pending, abandoned and new entries once', async () => {
    const { app, core, redis } = getApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = core.config.eventsStream;
    startRelay(core.config, { tuning: { pollIntervalMs: 50 } });
    const relayed = (count: number) =>
      pollUntil(`${count} entries on the stream`, async () => (await redis.xlen(stream)) >= count);
    const eventIdOf = async (entryId: string) => {
      const [[, fields]] = (await redis.xrange(stream, entryId, entryId)) as [[string, string[]]];
      return fields[fields.indexOf('id') + 1]!;
    };

    // Before the bot: in the snapshot only.
    const fan = await createUser();
    await grantPremium(core.sequelize, grantRequest(fan.providerId));
    await relayed(1);
    const example = startExample();
    expect(await example.next()).toEqual({
      held: { [`USER:${fan.providerId}`]: [1, expect.any(String), 'premium', {}] },
      music: [],
      handled: [],
    });

    // A consumer that read an entry and died, and one of the bot's own entries trimmed while pending.
    const buyer = await createUser();
    const guildId = snowflake();
    const abandoned = await grantPremium(
      core.sequelize,
      grantRequest(buyer.providerId, { category: 'SERVER', guildId, plan: seedPlan('Yearly') }),
    );
    await relayed(2);
    const [[, [[abandonedEntry]]]] = (await redis.xreadgroup(
      'GROUP',
      GROUP,
      'dead',
      'COUNT',
      10,
      'STREAMS',
      stream,
      '>',
    )) as unknown as [[string, [[string]]]];
    const trimmedEntry = (await redis.xadd(stream, '*', 'id', 'gone', 'type', 'gone', 'payload', '{}'))!;
    await redis.xreadgroup('GROUP', GROUP, CONSUMER, 'COUNT', 10, 'STREAMS', stream, '>');
    await redis.xdel(stream, trimmedEntry);
    // New entries: the fan's premium extended, a user's first, of a tier with music.
    const extended = await grantPremium(core.sequelize, grantRequest(fan.providerId));
    const newcomer = await createUser();
    await core.sequelize.query(
      `INSERT INTO tiers (code, name, rank, features) VALUES ('pro', 'Pro', 2, '{"music": true}')`,
    );
    const first = await grantPremium(core.sequelize, grantRequest(newcomer.providerId, { tier: 'pro' }));
    await relayed(4);
    const [, , extendedEntry, firstEntry] = (await redis.xrange(stream, '-', '+')).map(([id]) => id);

    example.proceed();
    const { held, music, handled } = await example.next();
    expect(await example.exited()).toBe(0);

    const expected = (change: PremiumChange, features = {}) => [
      change.version,
      change.expiresAt.toISOString(),
      change.tier,
      features,
    ];
    expect(held).toEqual({
      [`USER:${fan.providerId}`]: expected(extended),
      [`SERVER:${guildId}`]: expected(abandoned),
      [`USER:${newcomer.providerId}`]: expected(first, { music: true }),
    });
    expect(music).toEqual([`USER:${newcomer.providerId}`]);
    expect(handled).toEqual([
      await eventIdOf(abandonedEntry),
      await eventIdOf(extendedEntry!),
      await eventIdOf(firstEntry!),
    ]);
    // Everything acknowledged, the trimmed entry included.
    expect(await redis.xpending(stream, GROUP)).toEqual([0, null, null, null]);
  });
});
