import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/core/config';

const ROOT = path.resolve(__dirname, '..');

/** The picture under a heading of a page: its first fenced block. */
function pictureUnder(file: string, heading: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const section = text.slice(text.indexOf(heading));
  return section.slice(section.indexOf('```'), section.indexOf('```', section.indexOf('```') + 3));
}

/**
 * The worker's parts (src/worker/worker.ts starts each), as the pictures name them. A part added to the
 * worker fails the last test until it is named here, and then the pictures until they draw it.
 */
const WORKER_PARTS = [
  'outbox relay',
  'scheduled jobs',
  'seller-notice sender',
  'role-sync loop',
  'held-revokes watch',
];

describe('the pictures of what runs', () => {
  const jobs = Object.keys(loadConfig({ NODE_ENV: 'test' }).schedules);

  it.each([
    ['README.md', '## What runs'],
    ['docs/design.md', '## The shape'],
  ])('%s names every part of the worker and every scheduled job', (file, heading) => {
    const picture = pictureUnder(file, heading);
    expect(jobs.length).toBeGreaterThan(3);
    expect([...WORKER_PARTS, ...jobs].filter((part) => !picture.includes(part))).toEqual([]);
  });

  it('names every part the worker starts', () => {
    const worker = fs.readFileSync(path.join(ROOT, 'src/worker/worker.ts'), 'utf8');
    const started = [...worker.matchAll(/^\s+(\w+)\??(?:\.loop)?\.start\(\);$/gm)].map(([, part]) => part);
    expect(started).toEqual(['scheduler', 'relay', 'roles', 'heldRevokes', 'notices']);
  });
});
