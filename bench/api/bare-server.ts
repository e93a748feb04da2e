// The baselines of the API: the status route as a bare Fastify route doing the same single indexed SELECT
// with pg, shaped by the same function, without the service's plugins (rate limit, metrics, schemas); and
// verify-payment's floor (bare-verify.ts).
import Fastify from 'fastify';
import pg from 'pg';
import { premiumStatusOf } from '../../src/core/users';
import { bareVerifyRoute } from './bare-verify';
import { serveUntilTerminated } from './serve';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10, pipeline: true });
const app = Fastify();

app.get('/healthz', async () => ({ status: 'ok' }));
bareVerifyRoute(app, pool, { jwt: process.env.JWT_SECRET ?? '', key: process.env.RAZORPAY_KEY_SECRET ?? '' });
app.get<{ Params: { providerId: string } }>('/api/auth/user/:providerId', async (request, reply) => {
  const { rows } = await pool.query<{ premium_expires_at: Date | null }>({
    name: 'premium-status',
    text: 'SELECT premium_expires_at FROM users WHERE provider_id = $1',
    values: [request.params.providerId],
  });
  const row = rows[0];
  if (!row) return reply.code(404).send({ error: { code: 'USER_NOT_FOUND', message: 'no such user' } });
  return premiumStatusOf({ premiumExpiresAt: row.premium_expires_at });
});

serveUntilTerminated(app, () => pool.end());
