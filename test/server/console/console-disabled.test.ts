import { startOperatorSession } from '../../../src/core/console/operator-session';
import { useTestApp } from '../../support/app';

const app = useTestApp({ OPERATOR_PROVIDER_IDS: '' });

describe('the console while OPERATOR_PROVIDER_IDS is unset', () => {
  it('does not exist: its page, its routes and its sign-in are 404, whatever cookie comes', async () => {
    const { sequelize, config } = app().core;
    const cookie = `premium_console=${await startOperatorSession(sequelize, config.jwtSecret, { operatorId: '80351110224678912', username: 'ops' })}`;
    const answers = await Promise.all(
      [
        { method: 'GET', url: '/console' },
        { method: 'GET', url: '/console/assets/uPlot.iife.min.js' },
        { method: 'GET', url: '/api/console/me' },
        { method: 'GET', url: '/api/console/offers' },
        { method: 'POST', url: '/api/console/grant', headers: { 'x-console-request': '1' }, payload: {} },
        { method: 'GET', url: '/api/auth/login?for=console' },
      ].map(({ headers, ...request }) =>
        app().app.inject({ ...request, headers: { cookie, ...headers } } as never),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
    // The app's own sign-in is untouched.
    const login = await app().app.inject({ method: 'GET', url: '/api/auth/login' });
    expect(login.statusCode).toBe(302);
  });
});
