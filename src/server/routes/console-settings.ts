import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Core } from '../../core';
import { MESSAGE_KIND_TEXTS, MESSAGE_KINDS, previewMessage } from '../../core/buyer-messages';
import { settingsStatusNow } from '../../core/roles';
import { changeSettings, listSettings, readMessageSettings } from '../../core/settings';
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

/** A kind's text to preview (empty or null: the one set now, or the default). */
const PreviewBody = Type.Object(
  {
    kind: Type.Union(MESSAGE_KINDS.map((kind) => Type.Literal(kind))),
    text: Type.Union([Type.String({ maxLength: 4000 }), Type.Null()]),
  },
  { additionalProperties: false },
);

async function settingsPage(core: Core) {
  const [list, status] = await Promise.all([listSettings(core), settingsStatusNow(core)]);
  return { ...list, messageKinds: MESSAGE_KIND_TEXTS, status };
}

/**
 * The seller's settings in the console (`#/settings`, docs/settings.md): every setting with its value and
 * where it comes from, the status panel, the latest changes, and changes through `changeSettings`, as
 * `premium settings set|unset` makes them; each kind of buyer message's text (`messageKinds`, its setting
 * and default) and a preview of a text as a buyer would read it. Behind the console's guard like every
 * console route.
 */
const consoleSettingsRoutes: FastifyPluginAsyncTypebox<AppOptions> = async (app, { core }) => {
  app.get('/api/console/settings', { schema: { hide } }, async () => settingsPage(core));

  app.post('/api/console/settings', { schema: { hide, body: ChangeBody } }, async (request) => {
    const changes = await changeSettings(core, request.body.changes, actorOf(operatorOf(request)));
    request.log.info({ settings: changes.map((change) => change.name) }, 'console changes settings');
    return { changed: changes, ...(await settingsPage(core)) };
  });

  app.post('/api/console/messages/preview', { schema: { hide, body: PreviewBody } }, async (request) => {
    const { kind, text } = request.body;
    const settings = await readMessageSettings(core);
    const options = { storeUrl: core.config.frontendUrl, timeZone: core.config.reportTimeZone };
    return { preview: previewMessage(kind, text?.trim() ? text : null, settings, options) };
  });
};

export default consoleSettingsRoutes;
