import { PremiumMemory } from '../../src/bot-kit/memory';

describe('the memory of records', () => {
  it('keeps thousands of records, each at its newest version, and gives them all back', () => {
    const memory = new PremiumMemory();
    const at = (i: number) => new Date(Date.UTC(2030, 0, 1) + i * 1000);
    for (let i = 0; i < 3000; i++) {
      expect(memory.apply({ guildId: `${1000 + i}` }, { expiresAt: at(i), version: 2, slots: i % 5 })).toBe(
        true,
      );
    }
    expect(memory.apply({ guildId: '1000' }, { expiresAt: at(0), version: 1, slots: 9 })).toBe(false);
    expect(memory.apply({ providerId: '1000' }, { expiresAt: at(7), version: 1, slots: 1 })).toBe(true);

    expect(memory.get({ guildId: '3999' })).toEqual({ expiresAt: at(2999), version: 2, slots: 4 });
    expect(memory.get({ guildId: '1000' })).toEqual({ expiresAt: at(0), version: 2, slots: 0 });
    expect(memory.get({ providerId: '1000' })).toEqual({ expiresAt: at(7), version: 1, slots: 1 });
    expect(memory.get({ guildId: '999' })).toBeUndefined();
    expect(memory.isPremium({ guildId: '2000' }, at(1000).getTime())).toBe(false);
    expect(memory.isPremium({ guildId: '2001' }, at(1000).getTime())).toBe(true);
    expect(memory.entries()).toHaveLength(3001);
  });
});
