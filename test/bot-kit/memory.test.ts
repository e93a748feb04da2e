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

    const untiered = { tier: null, features: {} };
    expect(memory.get({ guildId: '3999' })).toEqual({
      expiresAt: at(2999),
      version: 2,
      slots: 4,
      ...untiered,
    });
    expect(memory.get({ guildId: '1000' })).toEqual({ expiresAt: at(0), version: 2, slots: 0, ...untiered });
    expect(memory.get({ providerId: '1000' })).toEqual({
      expiresAt: at(7),
      version: 1,
      slots: 1,
      ...untiered,
    });
    expect(memory.get({ guildId: '999' })).toBeUndefined();
    expect(memory.isPremium({ guildId: '2000' }, at(1000).getTime())).toBe(false);
    expect(memory.isPremium({ guildId: '2001' }, at(1000).getTime())).toBe(true);
    expect(memory.entries()).toHaveLength(3001);
  });

  it("keeps each record's running tier and features, each distinct pair once, and none once it ran out", () => {
    const memory = new PremiumMemory();
    const now = Date.UTC(2030, 0, 1);
    const until = (days: number) => new Date(now + days * 86_400_000);
    const pro = { tier: 'pro', features: { music: true, queue: 200 } };
    for (let i = 0; i < 100; i++) {
      memory.apply({ guildId: `${i}` }, { expiresAt: until(30), version: 1, slots: 1, ...pro });
    }
    memory.apply(
      { guildId: '7' },
      { expiresAt: until(60), version: 2, slots: 1, tier: 'premium', features: {} },
    );
    memory.apply({ providerId: '1' }, { expiresAt: until(-1), version: 3, slots: 1, ...pro });

    expect(memory.running({ guildId: '3' }, now)).toEqual(pro);
    expect(memory.get({ guildId: '3' })).toMatchObject(pro);
    expect(memory.running({ guildId: '7' }, now)).toEqual({ tier: 'premium', features: {} });
    expect(memory.running({ providerId: '1' }, now)).toEqual({ tier: null, features: {} });
    expect(memory.get({ providerId: '1' })).toMatchObject(pro);
    expect(memory.running({ guildId: 'unknown' }, now)).toEqual({ tier: null, features: {} });
    expect(memory.running({ guildId: '3' }, until(31).getTime())).toEqual({ tier: null, features: {} });
  });
});
