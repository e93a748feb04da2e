import { startOperatorSession } from '../../src/core/console/operator-session';
import type { TestApp } from './app';

/**
 * Requests as the console page sends them, for `operatorId` (one of the app's OPERATOR_PROVIDER_IDS):
 * a fresh session cookie, and on a POST the CSRF header.
 */
export function consoleRequests(app: () => TestApp, operatorId: string) {
  async function cookie(): Promise<string> {
    const { sequelize, config } = app().core;
    return `premium_console=${await startOperatorSession(sequelize, config.jwtSecret, { operatorId, username: 'ops' })}`;
  }
  async function request(method: 'GET' | 'POST', url: string, payload?: object) {
    return app().app.inject({
      method,
      url,
      headers: { cookie: await cookie(), ...(method === 'POST' && { 'x-console-request': '1' }) },
      payload,
    });
  }
  return { cookie, request };
}

/** A reply as [status, error code], to compare many at once. */
export const answer = (reply: { statusCode: number; json: () => { error?: { code: string } } }) => [
  reply.statusCode,
  reply.json().error?.code,
];
