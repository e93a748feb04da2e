import type { Sequelize } from 'sequelize';
import { selectRows } from '../db/database';
import { AppError } from '../errors';
import { urlProblem, type UrlRules } from './addresses';
import { newSecret } from './signature';
import { INSERT_ENDPOINT, LIST_ENDPOINTS, REMOVE_ENDPOINT, ROTATE_SECRET } from './sql';

/**
 * The event types an endpoint may ask for (the `type` of a body): only those the service sends, so an
 * endpoint never waits for a type that never comes. A new type joins this list with its sender: the
 * triggers of migrations 056 (`premium_changed`) and 066 (the money events).
 */
export const WEBHOOK_EVENTS = [
  'sale',
  'renewal',
  'charge_failed',
  'refund',
  'dispute',
  'premium_changed',
  'invoice',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** After a rotation the old secret still signs this long, while the seller's systems move to the new. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60_000;

export interface WebhookEndpoint {
  id: number;
  url: string;
  events: WebhookEvent[];
  createdAt: Date;
  /** Until when the secret before the last rotation still signs; null: never rotated. */
  previousUntil: Date | null;
  /** Removed: nothing more is delivered to it. */
  disabledAt: Date | null;
}

const asEndpoint = (row: WebhookEndpoint): WebhookEndpoint => ({ ...row, id: Number(row.id) });

function eventsOf(events: string[] | undefined): WebhookEvent[] {
  if (!events || events.length === 0) return [...WEBHOOK_EVENTS];
  const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unknown.length > 0)
    throw AppError.validation(
      'WEBHOOK_EVENTS_INVALID',
      `events: ${unknown.join(', ')} unknown; one or more of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  return [...new Set(events as WebhookEvent[])];
}

/** A new endpoint, with its signing secret: the only time the secret is shown. */
export async function addEndpoint(
  sequelize: Sequelize,
  { url, events, actor }: { url: string; events?: string[]; actor: string },
  rules: UrlRules,
): Promise<WebhookEndpoint & { secret: string }> {
  const problem = urlProblem(url, rules);
  if (problem) throw AppError.validation('WEBHOOK_URL_INVALID', `url: ${problem}`);
  const secret = newSecret();
  const [row] = await selectRows<WebhookEndpoint>(sequelize, INSERT_ENDPOINT, [
    url,
    eventsOf(events),
    secret,
    actor,
  ]);
  return { ...asEndpoint(row!), secret };
}

/** The endpoints, oldest first; the removed ones too when asked. */
export async function listEndpoints(sequelize: Sequelize, { all = false } = {}): Promise<WebhookEndpoint[]> {
  return (await selectRows<WebhookEndpoint>(sequelize, LIST_ENDPOINTS, [all])).map(asEndpoint);
}

function notFound(id: number): AppError {
  return AppError.notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${id} (or it was removed)`);
}

/** A new secret for endpoint `id`, shown once; the old one signs beside it for ROTATION_OVERLAP_MS. */
export async function rotateSecret(
  sequelize: Sequelize,
  id: number,
): Promise<WebhookEndpoint & { secret: string }> {
  const secret = newSecret();
  const [row] = await selectRows<WebhookEndpoint>(sequelize, ROTATE_SECRET, [
    id,
    secret,
    ROTATION_OVERLAP_MS,
  ]);
  if (!row) throw notFound(id);
  return { ...asEndpoint(row), secret };
}

/** Endpoint `id` removed: nothing more is queued for it, and what waits is given up at its next try. */
export async function removeEndpoint(sequelize: Sequelize, id: number): Promise<WebhookEndpoint> {
  const [row] = await selectRows<WebhookEndpoint>(sequelize, REMOVE_ENDPOINT, [id]);
  if (!row) throw notFound(id);
  return asEndpoint(row);
}
