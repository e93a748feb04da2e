import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/**
 * Whether Docker leaves `file` (a path from the build context's root) out of the context, by the rules of
 * .dockerignore: `*` and `?` within one path segment, `**` across any number, `!` takes a path back, the
 * last pattern that matches decides, and a directory left out leaves out everything in it.
 */
function ignored(patterns: string[], file: string): boolean {
  const rules = patterns.map((line) => {
    const keep = line.startsWith('!');
    const pattern = path.posix.normalize((keep ? line.slice(1) : line).replace(/^\/+/, ''));
    const source = pattern
      .split(/(\*\*\/?|\*|\?)/)
      .map((part) => {
        if (part === '**/') return '(?:.*/)?';
        if (part === '**') return '.*';
        if (part === '*') return '[^/]*';
        if (part === '?') return '[^/]';
        return part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    return { keep, match: new RegExp(`^${source}$`) };
  });
  const segments = file.split('/');
  let out = false;
  for (let depth = 1; depth <= segments.length; depth += 1) {
    const prefix = segments.slice(0, depth).join('/');
    for (const rule of rules) if (rule.match.test(prefix)) out = !rule.keep;
    if (out) return true;
  }
  return out;
}

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it("keeps the working copy's history, dependencies, builds, local servers, secrets and artifacts out", () => {
    const excluded = [
      '.git/HEAD',
      'node_modules/fastify/package.json',
      'bench/node_modules/x/index.js',
      'dist/src/server/main.js',
      '.dev/env',
      '.dev/postgres/PG_VERSION',
      '.env',
      '.env.production',
      'deploy/premium.env',
      'test-artifacts/console-overview.png',
      'coverage/lcov.info',
      '.bench-build/main.js',
      'npm-debug.log',
      'deploy/server.log',
    ];
    expect(excluded.filter((file) => !ignored(patterns, file))).toEqual([]);
  });

  it('keeps everything deploy/Dockerfile copies from the context, and the example settings', () => {
    const dockerfile = read('deploy/Dockerfile');
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap(([, from]) =>
      from!.split(' '),
    );
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'src', 'migrations', 'bin']));
    const kept = [...copied, 'src/server/main.ts', 'migrations/001-initial-schema.ts', 'bin/premium.js'];
    expect([...kept, '.env.example'].filter((file) => ignored(patterns, file))).toEqual([]);
  });
});
