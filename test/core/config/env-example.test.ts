import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError, loadConfig } from '../../../src/core/config';

const ROOT = path.resolve(__dirname, '../../..');
const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');

describe('.env.example', () => {
  it('still signs in after copying it and changing PORT: the URLs that can follow PORT do', () => {
    const copied = { ...parseEnv(example), PORT: '4123' };

    const config = loadConfig(copied);

    expect(config.port).toBe(4123);
    expect(config.frontendUrl).toBe('http://localhost:4123/store');
    expect(config.discord.redirectUri).toBe('http://localhost:4123/api/auth/idp/callback');
    // The same database the README's default names (the OS user), not a `postgres` user of its own.
    expect(config.databaseUrl).toBe(loadConfig({ NODE_ENV: 'development' }).databaseUrl);
  });

  it('says at its top that it is for development on this machine', () => {
    expect(example.split('\n')[0]).toMatch(/^# FOR DEVELOPMENT ON THIS MACHINE ONLY\./);
  });

  it('copied to a server that listens on every interface, stops naming HOST and each empty secret', () => {
    const copied = { ...parseEnv(example), HOST: '0.0.0.0' };

    let error: unknown;
    try {
      loadConfig(copied);
    } catch (caught) {
      error = caught;
    }

    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    for (const name of ['JWT_SECRET', 'DISCORD_CLIENT_SECRET', 'RAZORPAY_WEBHOOK_SECRET'])
      expect(problems).toContainEqual(
        expect.stringMatching(
          new RegExp(`^${name}: is required while HOST=0\\.0\\.0\\.0 is not a loopback address`),
        ),
      );
  });

  it('names only settings that docs/configuration.md documents, each as it names them', () => {
    const table = fs.readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
    const documented = new Set(
      [...table.matchAll(/^\|([^|]+)\|/gm)].flatMap(([, cell]) => cell!.match(/`[A-Z_]+`/g) ?? []),
    );
    const named = [...example.matchAll(/^#? ?([A-Z][A-Z_]+)=/gm)].map(([, name]) => `\`${name}\``);

    expect(named.filter((name) => !documented.has(name))).toEqual([]);
  });
});
