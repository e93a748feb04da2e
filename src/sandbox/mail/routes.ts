import type { FastifyPluginAsync } from 'fastify';
import type { DirectMessages } from '../discord/direct-messages';
import { escapeHtml } from '../html';
import type { SmtpSink } from './smtp-sink';

const time = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

function card(heading: string, meta: string, text: string): string {
  return `<article><h3>${escapeHtml(heading)}</h3><p class="meta">${escapeHtml(meta)}</p><pre>${escapeHtml(text)}</pre></article>`;
}

/** The page of every DM and mail the sandbox took, newest first, side by side. */
function messagesPage(dms: DirectMessages, sink: SmtpSink): string {
  const dmCards = [...dms.messages]
    .reverse()
    .map((dm) => card(`DM to ${dm.userId}`, time(dm.receivedAt), dm.content));
  const mailCards = [...sink.mails]
    .reverse()
    .map((mail) =>
      card(mail.subject, `${mail.from} → ${mail.to.join(', ')} · ${time(mail.receivedAt)}`, mail.text),
    );
  const column = (title: string, cards: string[]) =>
    `<section><h2>${title} (${cards.length})</h2>${cards.join('') || '<p class="meta">None yet.</p>'}</section>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>Sandbox: the buyers' messages</title>
<style>
body { font-family: system-ui, sans-serif; background: #f2f3f5; margin: 0; padding: 1rem; }
main { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem; }
article { background: #fff; border-radius: 8px; padding: 0.8rem 1rem; margin-bottom: 0.8rem; box-shadow: 0 1px 4px #0002; }
h3 { margin: 0; font-size: 1rem; } .meta { color: #555; font-size: 0.85rem; margin: 0.2rem 0 0.5rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: inherit; margin: 0; }
</style></head>
<body><h1>The buyers' messages</h1><main>
${column('Discord DMs from the bot', dmCards)}
${column('Mails in the SMTP sink', mailCards)}
</main></body></html>
`;
}

/** `GET /mail/sandbox/messages` (every mail, JSON) and `GET /sandbox/messages` (DMs and mails, a page). */
export function mailRoutes(dms: DirectMessages, sink: SmtpSink): FastifyPluginAsync {
  return async (app) => {
    app.get('/mail/sandbox/messages', async () => ({ mails: sink.mails, refused: [...sink.refused] }));
    app.get('/sandbox/messages', async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(messagesPage(dms, sink)),
    );
  };
}
