import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
/** `npm start` as the words of a command (`node --flags dist/…`). */
const words = (script: string) => scripts[script]!.split(' ');

describe('the systemd units', () => {
  it.each([
    ['deploy/premium-api.service', 'start'],
    ['deploy/premium-worker.service', 'worker'],
  ])('%s runs what npm run %s runs, in production, and docs/deploying.md points at it', (unit, script) => {
    const text = read(unit);
    const [, flags, entry] = /^ExecStart=\/usr\/bin\/node ((?:--\S+ )*)(\S+)$/m.exec(text) ?? [];

    expect(scripts[script]).toBe(`node ${flags}${entry}`);
    // `npm test` builds first: the file the unit starts is there after `npm run build`.
    expect(fs.existsSync(path.join(ROOT, entry!))).toBe(true);
    expect(text).toMatch(/^Environment=NODE_ENV=production$/m);
    expect(text).toMatch(/^Restart=always$/m);
    expect(text).toContain('npx premium db migrate');
    expect(read('docs/deploying.md')).toContain(`](../${unit})`);
  });
});

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
}

/**
 * No container engine runs on the test machines (and the images cannot be pulled): the compose file
 * and the Dockerfile are checked as text, against what the service runs and needs.
 */
describe('deploy/compose.yaml and deploy/Dockerfile', () => {
  const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };
  const { postgres, redis, migrate, api, worker } = compose.services;
  const dockerfile = read('deploy/Dockerfile');

  it('runs PostgreSQL, Redis with its append-only file, a one-shot migrate, the API and the worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'migrate', 'postgres', 'redis', 'worker']);
    expect(postgres!.image).toMatch(/^postgres:\d+/);
    expect(redis!.image).toMatch(/^redis:\d+/);
    expect(redis!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(migrate!.command).toEqual(['node', 'bin/premium.js', 'db', 'migrate']);
    expect(migrate!.restart).toBe('no');
    expect(api!.command).toEqual(words('start'));
    expect(worker!.command).toEqual(words('worker'));
  });

  it('builds one image for the three, from the Dockerfile, and runs it in production', () => {
    for (const service of [migrate!, api!, worker!]) {
      expect(service.image).toBe('premium-service');
      expect(path.resolve(ROOT, 'deploy', service.build!.context, service.build!.dockerfile)).toBe(
        path.join(ROOT, 'deploy/Dockerfile'),
      );
      expect(service.environment).toMatchObject({ NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379' });
      expect(service.environment!.DATABASE_URL).toMatch(/@postgres:5432\/premium$/);
    }
  });

  it('starts the API and the worker only after the migration succeeded and Redis answers', () => {
    expect(migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const service of [api!, worker!]) {
      expect(service.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
      });
      expect(service.healthcheck!.test.join(' ')).toMatch(/\/(readyz|healthz)/);
    }
    // The metrics ports stay private: only the API's public port is published.
    expect(api!.ports).toEqual(['3000:3000']);
    expect(worker!.ports).toBeUndefined();
  });

  it('builds in two stages, installs production dependencies only, and runs as a user, not root', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toContain('RUN npm ci --omit=dev');
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist dist$/m);
    expect(runtime).toMatch(/^USER node$/m);
    const [, cmd] = /^CMD (\[.*\])$/m.exec(runtime) ?? [];
    expect(JSON.parse(cmd!)).toEqual(words('start'));
    // What it copies from the repository exists.
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap(([, from]) =>
      from!.split(' '),
    );
    expect(copied.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
