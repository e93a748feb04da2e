import type { Sequelize } from 'sequelize';
import type { JobBackoff } from '../../core/jobs';
import {
  DELIVERY_JOB,
  deliveryTarget,
  messageOf,
  recordAttempt,
  safeAddress,
  signatureHeader,
  urlProblem,
  type DeliveryPayload,
  type UrlRules,
} from '../../core/outgoing-webhooks';
import type { JobHandler } from '../queue/handler';
import { postTo } from './post';

export interface DeliveryHandlerOptions {
  sequelize: Sequelize;
  rules: UrlRules;
  /** How long one try may take (10 s). */
  timeoutMs?: number;
  /** Past this age of its event, a delivery that fails is given up (dead): 3 days. */
  giveUpAfterMs?: number;
  backoff?: JobBackoff;
  now?: () => number;
}

/**
 * Delivers one event to one seller's endpoint (docs/webhooks.md), signed per Standard Webhooks with
 * every secret valid now. A 2xx is done; anything else (a redirect too), a timeout or a refused address
 * is tried again after the backoff until the event is `giveUpAfterMs` old, then dead (`premium jobs
 * retry` replays it). Every try is kept (`premium webhooks deliveries`).
 */
export function deliveryHandler({
  sequelize,
  rules,
  timeoutMs = 10_000,
  giveUpAfterMs = 3 * 24 * 60 * 60_000,
  backoff = { firstMs: 30_000, maxMs: 60 * 60_000 },
  now = Date.now,
}: DeliveryHandlerOptions): JobHandler<DeliveryPayload> {
  return {
    kind: DELIVERY_JOB,
    // The event's age decides when to give up: 3 days of waits of half an hour to an hour stay well under this.
    maxAttempts: 1000,
    backoff,
    leaseMs: timeoutMs + 60_000,
    async run(payload, run) {
      const target = await deliveryTarget(sequelize, payload.endpointId);
      if (target === null || target.disabled) return { dead: `endpoint ${payload.endpointId} was removed` };
      const { id, body } = messageOf(payload);
      const started = now();
      const timestamp = Math.floor(started / 1000);
      const url = new URL(target.url);
      const problem = urlProblem(target.url, rules);
      let answer;
      try {
        if (problem) throw new Error(`url ${problem}`);
        const address = await safeAddress(url.hostname, rules);
        const headers = {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(target.secrets, id, timestamp, body),
        };
        answer = await postTo(url, address, headers, body, timeoutMs);
      } catch (error) {
        answer = { status: null, error: (error as Error).message };
      }
      const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
      const error = ok ? null : 'error' in answer ? answer.error : `answered ${answer.status}`;
      await recordAttempt(sequelize, {
        endpointId: payload.endpointId,
        eventId: id,
        jobId: run.id,
        status: answer.status,
        error,
        response: 'response' in answer ? answer.response : null,
        durationMs: now() - started,
      });
      if (ok) return;
      if (now() - Date.parse(payload.event.occurredAt) >= giveUpAfterMs)
        return { dead: `${error}; undelivered for ${Math.round(giveUpAfterMs / 3_600_000)} h` };
      throw new Error(error!);
    },
  };
}
