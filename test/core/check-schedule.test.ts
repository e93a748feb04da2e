import { nextSubscriptionCheck } from '../../src/core/check-schedule';

describe('the next check of a live subscription', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

  it.each([
    ['grows with the checks made', 1, null, { nextCheckAt: at(15), checksMade: 1 }],
    ['stays at 6 hours after the fourth', 9, null, { nextCheckAt: at(360), checksMade: 9 }],
    [
      'comes 10 minutes after a charge due sooner, and grows again from there',
      9,
      at(60),
      { nextCheckAt: at(70), checksMade: 0 },
    ],
    ['keeps its interval when the charge is due later', 1, at(600), { nextCheckAt: at(15), checksMade: 1 }],
    [
      'keeps its interval when the charge was due in the past',
      3,
      at(-30),
      { nextCheckAt: at(360), checksMade: 3 },
    ],
  ])('%s', (_label, checksMade, chargeAt, expected) => {
    expect(nextSubscriptionCheck(checksMade, now, chargeAt)).toEqual(expected);
  });
});
