import fc from 'fast-check';
import { canManageGuild } from '../../../src/core/identity/guild-permissions';

describe('canManageGuild', () => {
  it.each([
    ['the owner, whatever the bitfield', true, '0', true],
    ['MANAGE_GUILD (1 << 5)', false, '32', true],
    ['ADMINISTRATOR (1 << 3)', false, '8', true],
    ['a member with neither', false, '104324673', false],
    [
      'MANAGE_GUILD beside bit 60 (lost when read as a number)',
      false,
      ((1n << 60n) | (1n << 5n)).toString(),
      true,
    ],
    ['only bits above 2^32', false, ((1n << 60n) | (1n << 40n)).toString(), false],
  ])('%s → %s', (_label, owner, permissions, expected) => {
    expect(canManageGuild({ owner, permissions })).toBe(expected);
  });

  it('is decided by bits 3 and 5 alone, however large the bitfield', () => {
    const bits = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    fc.assert(
      fc.property(bits, bits, (low, high) => {
        const withoutHigh = canManageGuild({ owner: false, permissions: (low & 0b111111n).toString() });
        const withHigh = canManageGuild({
          owner: false,
          permissions: ((high << 6n) | (low & 0b111111n)).toString(),
        });
        return withHigh === withoutHigh && withoutHigh === ((low & 0b101000n) !== 0n);
      }),
    );
  });
});
