// The ladder's "bare Fastify + pg" rung: a plain Fastify route running the same statement as
// GET /api/v1/me (the guard's profile + session lookup, one round trip), with no JWT, no schema
// validation, no hooks. Started as a child process by bench.ts.
import Fastify from 'fastify';
import pg from 'pg';
import { ME_SQL, meParams } from './me-sql.ts';

const url = process.env.BENCH_DATABASE_URL;
const userId = process.env.BENCH_USER_ID;
const sessionId = process.env.BENCH_SESSION_ID;
if (!url || !userId || !sessionId) {
  console.error('bare-server needs BENCH_DATABASE_URL, BENCH_USER_ID and BENCH_SESSION_ID');
  process.exit(1);
}

// The portal's pool size (BENCH_POOL_MAX, as bench.ts gives the portal), so both rungs have the
// same connections.
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BENCH_POOL_MAX ?? 10) });
const app = Fastify({ logger: false });

app.get('/me', async (_req, reply) => {
  // Named, like the portal's prepared statement: parsed once per connection.
  const { rows } = await pool.query({
    name: 'me',
    text: ME_SQL,
    values: meParams(userId, sessionId),
    rowMode: 'array',
  });
  const row = rows[0];
  if (!row?.[11]) return reply.code(401).send({ error: 'no session' });
  reply.header('cache-control', 'no-store');
  return {
    id: row[0],
    email: row[1],
    role: row[2],
    status: row[3],
    name: row[4],
    business_legal_name: row[5],
    phone_number: row[6],
    whatsapp_number: row[7],
    ms_teams_id: row[8],
    address: row[9],
    created_at: row[10].toISOString(),
  };
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${address}`);
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
