import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { settingsStatusNow } from '../../core/roles';
import { changeSettings, listSettings } from '../../core/settings';
import type { AppOptions } from '../app-options';
import { actorOf, operatorOf } from '../console/guard';

const hide = true;

/** New values by name (null unsets); several at once where only a pair is valid (ROLE_GUILD_ID, TIER_ROLES). */
const ChangeBody = Type.Object(
  {
    changes: Type.Record(
      Type.String({ minLength: 1, maxLength: 64 }),
      Type.Union([Type.String({ maxLength: 4000 }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);

async function settingsPage(core: Core) {
  const [list, status] = await Promise.all([listSettings(core), settingsStatusNow(core)]);
  return { ...list, status };
}

/**
 * The seller's settings in the console (`#/settings`, docs/settings.md): every setting with its value and
 * where it comes from, the status panel, the latest changes, and changes through `changeSettings`, as
 * `premium settings set|unset` makes them. Behind the console's guard like every console route.
 */
const consoleSettingsRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  app.get('/api/console/settings', { schema: { hide } }, async () => settingsPage(core));

  app.post('/api/console/settings', { schema: { hide, body: ChangeBody } }, async (request) => {
    const changes = await changeSettings(core, request.body.changes, actorOf(operatorOf(request)));
    request.log.info({ settings: changes.map((change) => change.name) }, 'console changes settings');
    return { changed: changes, ...(await settingsPage(core)) };
  });
};

export default consoleSettingsRoutes;
