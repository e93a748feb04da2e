import {
  endOperatorSession,
  startOperatorSession,
  verifyOperatorSession,
} from '../../../src/core/console/operator-session';
import { useTestCore } from '../../support/context';

const getCore = useTestCore();
const OPERATOR = '80351110224678912';

describe('the console’s operator session', () => {
  const config = () => ({ jwtSecret: getCore().config.jwtSecret, operatorProviderIds: [OPERATOR] });
  const start = () =>
    startOperatorSession(getCore().sequelize, getCore().config.jwtSecret, {
      operatorId: OPERATOR,
      username: 'seller',
    });

  it('lets the operator in until the session is ended', async () => {
    const token = await start();
    const session = await verifyOperatorSession(getCore().sequelize, config(), token);
    expect(session).toMatchObject({ operatorId: OPERATOR, username: 'seller' });

    await endOperatorSession(getCore().sequelize, session.sessionId);
    await expect(verifyOperatorSession(getCore().sequelize, config(), token)).rejects.toMatchObject({
      code: 'CONSOLE_SIGN_IN_REQUIRED',
    });
  });

  it('refuses an id taken off OPERATOR_PROVIDER_IDS, and a token signed with another secret', async () => {
    const token = await start();
    const noLonger = { ...config(), operatorProviderIds: [] };
    await expect(verifyOperatorSession(getCore().sequelize, noLonger, token)).rejects.toMatchObject({
      code: 'NOT_AN_OPERATOR',
    });
    const otherSecret = { ...config(), jwtSecret: 'another-secret-of-at-least-32-characters' };
    await expect(verifyOperatorSession(getCore().sequelize, otherSecret, token)).rejects.toMatchObject({
      code: 'CONSOLE_SIGN_IN_REQUIRED',
    });
  });
});
