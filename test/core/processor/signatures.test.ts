import {
  paymentSignature,
  signaturesMatch,
  webhookSignature,
} from '../../../src/core/processor/razorpay-client';

describe('signatures', () => {
  it('signs order_id|payment_id with HMAC-SHA256 hex', () => {
    // Computed independently: printf 'order_1|pay_1' | openssl dgst -sha256 -hmac secret
    expect(paymentSignature('order_1', 'pay_1', 'secret')).toBe(
      '52115a0d3400de9e86aade1f1b6eba9e8974604f4e267a9e9a16633a4c8dd2cb',
    );
  });

  it('signs a buffer and the same text alike', () => {
    expect(webhookSignature(Buffer.from('{"a":1}'), 's')).toBe(webhookSignature('{"a":1}', 's'));
  });

  it.each([
    ['the same signature', 'ab12', 'ab12', true],
    ['upper-case hex', 'ab12', 'AB12', true],
    ['another signature', 'ab12', 'ab13', false],
    ['a shorter one', 'ab12', 'ab', false],
    ['an odd length', 'ab12', 'ab1', false],
    ['an empty one', 'ab12', '', false],
    ['non-hex text', 'ab12', 'zz12', false],
  ])('compares %s', (_case, expected, given, match) => {
    expect(signaturesMatch(expected, given)).toBe(match);
  });
});
