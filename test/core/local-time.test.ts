import { localTime, typedInstant } from '../../src/core/local-time';

describe('times as people read and type them', () => {
  it('writes an instant in the zone given, to the minute, with the zone', () => {
    const instant = new Date('2026-12-31T18:29:00Z');
    expect(localTime(instant, 'Asia/Kolkata')).toBe('2026-12-31 23:59 IST');
    expect(localTime(instant, 'UTC')).toBe('2026-12-31 18:29 UTC');
    expect(localTime(new Date('2026-07-01T12:00:00Z'), 'Europe/London')).toBe('2026-07-01 13:00 GMT+1');
  });

  it('reads "valid until 2026-12-31" as the end of that day in the zone, a start as its first moment', () => {
    expect(typedInstant('2026-12-31', 'Asia/Kolkata', 'end')).toEqual(new Date('2026-12-31T18:30:00Z'));
    expect(typedInstant('2026-12-31', 'Asia/Kolkata', 'start')).toEqual(new Date('2026-12-30T18:30:00Z'));
    // A clock time is the zone's; summer time is the zone's too.
    expect(typedInstant('2026-12-31T18:30', 'Asia/Kolkata', 'end')).toEqual(new Date('2026-12-31T13:00:00Z'));
    expect(typedInstant('2026-07-01', 'Europe/London', 'start')).toEqual(new Date('2026-06-30T23:00:00Z'));
  });

  it('keeps an instant typed with its offset, and refuses what is no day', () => {
    expect(typedInstant('2026-11-15T18:30:00Z', 'Asia/Kolkata', 'end')).toEqual(
      new Date('2026-11-15T18:30:00Z'),
    );
    expect(typedInstant('2026-11-15T18:30:00+05:30', 'UTC', 'start')).toEqual(
      new Date('2026-11-15T13:00:00Z'),
    );
    for (const text of ['2026-02-30', '2026-11-15T25:00', 'tomorrow', '15/11/2026', ''])
      expect(typedInstant(text, 'Asia/Kolkata', 'end')).toBeNull();
  });
});
