import type { Sequelize } from 'sequelize';
import type { Config } from '../config';
import { isOperator, startOperatorSession, type OperatorClaims } from '../console/operator-session';
import { AppError } from '../errors';
import type { DiscordClient } from './discord-client';

/**
 * A console sign-in after the state was checked: trades the code and reads who signed in. Only an
 * operator gets a session and its token; anyone else is refused with NOT_AN_OPERATOR and nothing is
 * recorded of them.
 */
export async function signInOperator(
  sequelize: Sequelize,
  config: Pick<Config, 'jwtSecret' | 'operatorProviderIds'>,
  discord: DiscordClient,
  code: string,
): Promise<{ token: string; operator: OperatorClaims }> {
  const account = await discord.fetchUser(await discord.exchangeCode(code));
  if (!isOperator(config, account.id))
    throw AppError.forbidden('NOT_AN_OPERATOR', `${account.id} is not among OPERATOR_PROVIDER_IDS`);
  const operator = { operatorId: account.id, username: account.username };
  return { token: await startOperatorSession(sequelize, config.jwtSecret, operator), operator };
}
