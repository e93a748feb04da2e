export { isPrivateAddress, safeAddress, urlProblem, type UrlRules } from './addresses';
export {
  DELIVERY_JOB,
  deliveryTarget,
  listAttempts,
  messageOf,
  recordAttempt,
  replayDelivery,
  RESPONSE_LIMIT,
  type Attempt,
  type AttemptRow,
  type DeliveryPayload,
  type WebhookData,
} from './deliveries';
export {
  addEndpoint,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  ROTATION_OVERLAP_MS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEvent,
} from './endpoints';
export { newSecret, signatureHeader } from './signature';
