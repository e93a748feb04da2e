import { avatarUrl, guildIconUrl } from '../../src/core/cdn';

describe('Discord CDN URLs', () => {
  it('serves a still avatar as PNG and an animated (a_) one as GIF', () => {
    expect(avatarUrl('80351110224678912', '8342729096ea3675442027381ff50dfe')).toBe(
      'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png',
    );
    expect(avatarUrl('80351110224678912', 'a_1269e74af4df7417b13759eae50c83dc')).toBe(
      'https://cdn.discordapp.com/avatars/80351110224678912/a_1269e74af4df7417b13759eae50c83dc.gif',
    );
  });

  it.each([
    // (id >> 22) % 6, computed on the exact id: a double would round these ids and pick another avatar.
    ['80351110224678912', 5],
    ['613425648685547541', 2],
    ['1100000000000000000', 1],
  ])('gives user %s without an avatar default avatar %i', (id, index) => {
    expect(avatarUrl(id, null)).toBe(`https://cdn.discordapp.com/embed/avatars/${index}.png`);
  });

  it('points at DISCORD_CDN_URL when given one (the sandbox, in development)', () => {
    expect(avatarUrl('80351110224678912', null, 'http://127.0.0.1:4010/discord/cdn')).toBe(
      'http://127.0.0.1:4010/discord/cdn/embed/avatars/5.png',
    );
  });

  it('builds guild icon URLs the same way, and none without an icon', () => {
    expect(guildIconUrl('613425648685547541', 'a_abc')).toBe(
      'https://cdn.discordapp.com/icons/613425648685547541/a_abc.gif',
    );
    expect(guildIconUrl('613425648685547541', 'abc')).toBe(
      'https://cdn.discordapp.com/icons/613425648685547541/abc.png',
    );
    expect(guildIconUrl('613425648685547541', null)).toBeNull();
  });
});
