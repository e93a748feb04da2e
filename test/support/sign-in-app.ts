import type { LightMyRequestResponse } from 'fastify';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { useTestApp, type TestApp } from './app';
import { testConfig } from './context';

export const FRONTEND_URL = 'http://frontend.test';
export const REDIRECT_URI = 'http://api.test/api/auth/idp/callback';

/**
 * The API configured for sign-in against a sandbox of its own, reached over real HTTP. The sandbox
 * starts first, so that the app is built with its addresses.
 */
export function useSignInApp(overrides: NodeJS.ProcessEnv = {}): {
  app: () => TestApp;
  sandbox: () => Sandbox;
} {
  let sandbox: Sandbox | undefined;
  const env: NodeJS.ProcessEnv = { FRONTEND_URL, DISCORD_REDIRECT_URI: REDIRECT_URI, ...overrides };
  beforeAll(async () => {
    const { discord, razorpay } = testConfig();
    sandbox = await startSandbox({ discord, razorpay });
    env.DISCORD_API_URL = sandbox.discordApiUrl;
    env.DISCORD_AUTHORIZE_URL = sandbox.discordAuthorizeUrl;
  });
  const app = useTestApp(env);
  afterEach(() => {
    sandbox!.faults.clear();
    sandbox!.discord.autoApprove = true;
  });
  afterAll(() => sandbox?.close());
  return { app, sandbox: () => sandbox! };
}

/** The `Location` of a redirect, parsed. */
export function redirectOf(reply: LightMyRequestResponse): URL {
  expect(reply.statusCode).toBe(302);
  return new URL(reply.headers.location as string);
}

/** The value of the sign-in state cookie a reply sets (undefined when it sets none). */
export function stateCookieOf(reply: LightMyRequestResponse): string | undefined {
  return reply.cookies.find((cookie) => cookie.name === 'premium_sign_in_state')?.value;
}
