import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { loadConfig } from '../../src/core/config';

const ROOT = path.resolve(__dirname, '../..');
const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');

describe('.env.example', () => {
  it('still signs in after copying it and changing PORT: the URLs that can follow PORT do', () => {
    const copied = { ...parseEnv(example), PORT: '4123' };

    const config = loadConfig(copied);

    expect(config.port).toBe(4123);
    expect(config.frontendUrl).toBe('http://localhost:4123');
    expect(config.discord.redirectUri).toBe('http://localhost:4123/api/auth/idp/callback');
    // The same database the README's default names (the OS user), not a `postgres` user of its own.
    expect(config.databaseUrl).toBe(loadConfig({ NODE_ENV: 'development' }).databaseUrl);
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
