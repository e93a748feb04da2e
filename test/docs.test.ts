import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program';
import { useTestApp } from './support/app';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter(
  (file) => file.endsWith('.md'),
);

describe('docs/api.md', () => {
  const getApp = useTestApp();

  it('documents every route of the live OpenAPI (/docs), by method and path', async () => {
    const openapi = (await getApp().app.inject({ url: '/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(openapi.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    const api = read('docs/api.md');

    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((route) => !api.includes(`\`${route}\``))).toEqual([]);
  });
});

describe('the README and docs/', () => {
  it.each(DOCS)('%s links only to files of this repository that exist', (file) => {
    const text = read(file);
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target!);
    const outside = targets.filter((target) => /^[a-z]+:/i.test(target) || target.startsWith('//'));
    const broken = targets
      .filter((target) => !outside.includes(target) && !target.startsWith('#'))
      .filter((target) => {
        const resolved = path.resolve(ROOT, path.dirname(file), target.split('#')[0]!);
        return !resolved.startsWith(`${ROOT}${path.sep}`) || !fs.existsSync(resolved);
      });
    expect({ outside, broken }).toEqual({ outside: [], broken: [] });
    // A bare address outside code is a link too (Markdown renderers make it one); in code it is a value.
    const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    expect(prose.match(/https?:\/\/(?!localhost|127\.0\.0\.1)\S+/g) ?? []).toEqual([]);
  });

  it('shows only npm scripts that exist', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts);
    const shown = [
      ...DOCS.map(read)
        .join('\n')
        .matchAll(/npm run (?:--silent )?([a-z:-]+)/g),
    ].map(([, name]) => name);
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.filter((name) => !scripts.includes(name!))).toEqual([]);
  });

  it('shows only premium commands and options that exist', () => {
    const { program } = buildProgram();
    const shown = [
      ...DOCS.map(read)
        .join('\n')
        .matchAll(/^(?:npx )?premium ([^#\n]+)/gm),
    ].map(([, rest]) => rest!);
    const problems = shown.flatMap((line) => {
      const words = line.split(/\s+/).filter((word) => word !== '' && word !== '…');
      let command: Command = program;
      const options = new Set(program.options.map((option) => option.long));
      for (const word of words) {
        const sub = command.commands.find((candidate) => candidate.name() === word);
        if (sub) {
          command = sub;
          for (const option of sub.options) options.add(option.long);
        } else if (word.startsWith('--') && !options.has(word.split('=')[0])) {
          return [`${line}: ${word}`];
        }
      }
      return command === program ? [`${line}: no such command`] : [];
    });
    expect(shown.length).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });
});

/** Every text of the repository a reader meets: code, tests, migrations, docs, deploy files. */
function repositoryTexts(): string[] {
  const skip = new Set(['node_modules', 'dist', '.git', '.dev', '.bench-build', 'test-artifacts']);
  const walk = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return skip.has(entry.name) ? [] : walk(file);
      return /\.(ts|js|md|json|yaml|sh|service|example)$|Dockerfile$|^\.ci\/run$/.test(file) ? [file] : [];
    });
  return walk('').filter((file) => file !== 'package-lock.json' && file !== 'bench/results.json');
}

describe('the repository stands alone', () => {
  const texts = repositoryTexts();

  it('refers to no document kept outside it', () => {
    // Spelled in pieces, so that this file does not name them itself.
    const outside = ['../' + 'shared', 'DESIGN' + '.md', 'spec/' + 'interface', 'spec ' + '§'];
    const found = texts.flatMap((file) =>
      outside.filter((name) => read(file).includes(name)).map((name) => `${file}: ${name}`),
    );
    expect(texts.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('refers only to docs/ pages that exist', () => {
    const cited = texts.flatMap((file) =>
      [...read(file).matchAll(/\bdocs\/([\w-]+\.md)/g)].map(([, page]) => `${file}: docs/${page}`),
    );
    expect(cited.length).toBeGreaterThan(10);
    expect(cited.filter((entry) => !fs.existsSync(path.join(ROOT, entry.split(': ')[1]!)))).toEqual([]);
  });
});
