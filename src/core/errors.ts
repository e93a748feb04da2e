/**
 * What went wrong, in terms every entry point can translate: the server maps `kind` to an HTTP status,
 * the CLI to an exit code. `code` is the stable machine-readable name (`SIGNATURE_MISMATCH`, ...).
 */
export type ErrorKind =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'gone'
  | 'rate_limited'
  | 'unavailable';

export class AppError extends Error {
  /** For a `rate_limited` refusal: when asking again can succeed (the server answers it as `Retry-After`). */
  retryAt?: Date;

  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }

  static validation(code: string, message: string, details?: unknown): AppError {
    return new AppError('validation', code, message, details);
  }
  static unauthorized(code: string, message: string): AppError {
    return new AppError('unauthorized', code, message);
  }
  static forbidden(code: string, message: string): AppError {
    return new AppError('forbidden', code, message);
  }
  static notFound(code: string, message: string): AppError {
    return new AppError('not_found', code, message);
  }
  static conflict(code: string, message: string): AppError {
    return new AppError('conflict', code, message);
  }
  static unavailable(code: string, message: string): AppError {
    return new AppError('unavailable', code, message);
  }
  /** A refusal until `retryAt`, which `details.retryAt` says too. */
  static rateLimited(code: string, message: string, retryAt: Date, details: object = {}): AppError {
    const error = new AppError('rate_limited', code, message, { ...details, retryAt: retryAt.toISOString() });
    error.retryAt = retryAt;
    return error;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
