import type { FastifyError, FastifyInstance } from 'fastify';
import { isAppError, type ErrorKind } from '../core/errors';

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  unavailable: 502,
};

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

function toErrorReply(error: FastifyError | Error): { status: number; body: ErrorBody } {
  if (isAppError(error)) {
    const body: ErrorBody = { error: { code: error.code, message: error.message } };
    if (error.details !== undefined) body.error.details = error.details;
    return { status: STATUS_BY_KIND[error.kind], body };
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return {
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: fastifyError.message,
          details: fastifyError.validation.map((issue) => ({
            field: `${fastifyError.validationContext ?? ''}${issue.instancePath}`,
            message: issue.message,
          })),
        },
      },
    };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return {
      status,
      body: { error: { code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message: fastifyError.message } },
    };
  }
  return { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } } };
}

function secondsUntil(moment: Date): number {
  return Math.max(1, Math.ceil((moment.getTime() - Date.now()) / 1000));
}

/** One JSON error shape for every failure, Fastify's own included; never a stack trace. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = toErrorReply(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    if (isAppError(error) && error.retryAt) reply.header('retry-after', secondsUntil(error.retryAt));
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({
      error: { code: 'NOT_FOUND', message: `no route ${request.method} ${request.url.split('?')[0]}` },
    }),
  );
}
