import type { FastifyServerOptions } from 'fastify';

/** Query parameters that carry credentials: OAuth codes and state, session tokens. */
const SENSITIVE_QUERY = /([?&](?:code|state|token|access_token)=)[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1[REDACTED]');
}

/** Pino options for the API: credentials in headers, URLs and bodies never reach a log line. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-razorpay-signature"]',
        '*.secret',
        '*.token',
        '*.access_token',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; headers: Record<string, unknown> }) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}
