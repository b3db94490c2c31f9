// The ladder's "bare Fastify + pg" rung: a plain Fastify route running the same two statements
// as GET /api/v1/me (the guard's user + session lookup, then the profile row), with no JWT,
// no schema validation, no hooks. Started as a child process by bench.ts.
import Fastify from 'fastify';
import pg from 'pg';
import { ME_PROFILE_SQL, ME_SESSION_SQL } from './me-sql.ts';

const url = process.env.BENCH_DATABASE_URL;
const userId = process.env.BENCH_USER_ID;
const sessionId = process.env.BENCH_SESSION_ID;
if (!url || !userId || !sessionId) {
  console.error('bare-server needs BENCH_DATABASE_URL, BENCH_USER_ID and BENCH_SESSION_ID');
  process.exit(1);
}

// The portal's pool size (server/db/client.ts), so both rungs have the same connections.
const pool = new pg.Pool({ connectionString: url, max: 10 });
const app = Fastify({ logger: false });

app.get('/me', async (_req, reply) => {
  const s = await pool.query(ME_SESSION_SQL, [userId, sessionId]);
  if (!s.rows[0]?.session_id) return reply.code(401).send({ error: 'no session' });
  const { rows } = await pool.query(ME_PROFILE_SQL, [userId]);
  const row = rows[0];
  reply.header('cache-control', 'no-store');
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    name: row.name,
    business_legal_name: row.business_legal_name,
    phone_number: row.phone_number,
    whatsapp_number: row.whatsapp_number,
    ms_teams_id: row.ms_teams_id,
    address: row.address,
    created_at: row.created_at.toISOString(),
  };
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${address}`);
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
