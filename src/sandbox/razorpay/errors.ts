import { STATUS_CODES } from 'node:http';

/**
 * An error Razorpay answers with its JSON error body. Input validation failures name the `field`
 * and are attributed to the business/payment_initiation step, as Razorpay does; others say `NA`.
 */
export class RazorpayApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly description: string,
    readonly field?: string,
  ) {
    super(description);
    this.name = 'RazorpayApiError';
  }

  get body() {
    return razorpayErrorBody(this.statusCode, this.description, this.field);
  }
}

export function razorpayErrorBody(statusCode: number, description: string, field?: string) {
  const attribution =
    field === undefined
      ? { source: 'NA', step: 'NA', reason: 'NA' }
      : { source: 'business', step: 'payment_initiation', reason: 'input_validation_failed' };
  return {
    error: {
      code: statusCode >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR',
      description,
      ...(field === undefined ? {} : { field }),
      ...attribution,
      metadata: {},
    },
  };
}

/** A gateway's error page: what the SDK sees as an error without Razorpay's `error` object. */
export function gatewayErrorPage(status: number): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`;
}

export function unknownId(): RazorpayApiError {
  return new RazorpayApiError(400, 'The id provided does not exist');
}
