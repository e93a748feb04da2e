import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { issueSessionToken } from '../../src/core/session';
import { app } from '../../src/server/app';
import { useTestCore } from '../support/context';

const getCore = useTestCore();
const claims = {
  providerId: '80351110224678912',
  username: 'fan',
  avatar: 'https://cdn.discordapp.com/embed/avatars/1.png',
};

describe('bearer authentication', () => {
  let server: FastifyInstance;
  let redis: Redis;
  let secret: string;

  beforeAll(async () => {
    redis = new Redis(getCore().config.redisUrl);
    secret = getCore().config.jwtSecret;
    server = Fastify();
    await server.register(app, { core: getCore(), redis });
    // A route of this test's own, to exercise the plugin as the payment routes use it.
    server.get('/test/whoami', { preHandler: server.authenticate }, async (request) => request.caller);
    await server.ready();
  });
  afterAll(async () => {
    await server.close();
    redis.disconnect();
  });

  const whoami = (authorization?: string) =>
    server.inject({ method: 'GET', url: '/test/whoami', headers: authorization ? { authorization } : {} });

  it('accepts a token the service issued and exposes the caller', async () => {
    const reply = await whoami(`Bearer ${issueSessionToken(secret, claims)}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual(claims);
  });

  it('issues tokens that live 24 hours with the three claims, signed HS256', () => {
    const decoded = jwt.decode(issueSessionToken(secret, claims), { complete: true })!;
    const payload = decoded.payload as jwt.JwtPayload;
    expect(decoded.header.alg).toBe('HS256');
    expect(payload).toMatchObject(claims);
    expect(payload.exp! - payload.iat!).toBe(24 * 3600);
  });

  it.each([
    ['no header', undefined, 'AUTHENTICATION_REQUIRED'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'INVALID_TOKEN'],
    ['garbage', 'Bearer not-a-token', 'INVALID_TOKEN'],
  ])('refuses %s with 401', async (_label, header, code) => {
    const reply = await whoami(header);
    expect(reply.statusCode).toBe(401);
    expect(reply.json()).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('refuses alg none, a wrong key, another algorithm and an expired token', async () => {
    const unsigned = jwt.sign(claims, '', { algorithm: 'none' });
    const wrongKey = jwt.sign(claims, 'another-secret-of-at-least-thirty-two-chars', { algorithm: 'HS256' });
    const hs512 = jwt.sign(claims, secret, { algorithm: 'HS512' });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }, secret, {
      algorithm: 'HS256',
    });

    for (const token of [unsigned, wrongKey, hs512]) {
      const reply = await whoami(`Bearer ${token}`);
      expect(reply.statusCode).toBe(401);
      expect(reply.json().error.code).toBe('INVALID_TOKEN');
    }
    const reply = await whoami(`Bearer ${expired}`);
    expect(reply.statusCode).toBe(401);
    expect(reply.json().error.code).toBe('TOKEN_EXPIRED');
  });

  it('refuses a correctly signed token without exp or without iat (one that would never expire)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const noExp = jwt.sign({ ...claims, iat: now }, secret, { algorithm: 'HS256' });
    const noIat = jwt.sign({ ...claims, exp: now + 3600 }, secret, { algorithm: 'HS256', noTimestamp: true });
    for (const token of [noExp, noIat]) {
      const reply = await whoami(`Bearer ${token}`);
      expect(reply.statusCode).toBe(401);
      expect(reply.json().error.code).toBe('INVALID_TOKEN');
    }
    // Through a real payment route too: refused before anything is read.
    const me = await server.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${noExp}` },
    });
    expect(me.statusCode).toBe(401);
  });
});
