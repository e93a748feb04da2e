import { useTestApp } from '../../support/app';
import { snowflake } from '../../support/fixtures';

const app = useTestApp({ OPERATOR_PROVIDER_IDS: snowflake(), RATE_LIMIT_PER_MINUTE: '2' });

/** Loads the page and every script and style it names (`assets`), as a browser does: the statuses. */
async function loadPage(assets: string[]): Promise<number[]> {
  const page = await app().app.inject({ url: '/console' });
  const replies = await Promise.all(assets.map((url) => app().app.inject({ url })));
  return [page.statusCode, ...replies.map((reply) => reply.statusCode)];
}

describe("the console page's scripts and styles", () => {
  it('are limited per page load: RATE_LIMIT_PER_MINUTE loads a minute get them all, the next none', async () => {
    const page = await app().app.inject({ url: '/console' });
    const assets = [...page.body.matchAll(/"(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(10);

    const loads = [await loadPage(assets), await loadPage(assets)];

    // The page's own route counted one load already.
    expect(loads[0]!.every((status) => status === 200)).toBe(true);
    expect(loads[1]!.slice(1).every((status) => status === 200)).toBe(true);
    expect(new Set((await loadPage(assets)).slice(1))).toEqual(new Set([429]));
  });
});
