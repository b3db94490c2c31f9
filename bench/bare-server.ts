// The bench's bare Fastify + pg server: plain routes running the portal's own SQL with no JWT,
// no schema validation, no hooks. Started as a child process by bench.ts.
// - GET /me: the statement of GET /api/v1/me (the point-read ladder's rung), when
//   BENCH_USER_ID and BENCH_SESSION_ID are given.
// - GET /row/:key: the SQL the portal ran for that bench row, captured in the dry run
//   (BENCH_REPLAY_FILE, see bench/bench-refs.ts): each request replays the next captured sample
//   in turn (so the parameters vary as the row's do), in a transaction when the portal used one,
//   else wave by wave as the portal sent them, and answers the rows as JSON.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import type { ReplayFile, ReplayStatement } from './bench-refs.ts';
import { ME_SQL, meParams } from './me-sql.ts';

const url = process.env.BENCH_DATABASE_URL;
const userId = process.env.BENCH_USER_ID;
const sessionId = process.env.BENCH_SESSION_ID;
const replayFile = process.env.BENCH_REPLAY_FILE;
if (!url) {
  console.error('bare-server needs BENCH_DATABASE_URL');
  process.exit(1);
}

// The portal's pool size (BENCH_POOL_MAX, as bench.ts gives the portal), so both have the same
// connections.
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BENCH_POOL_MAX ?? 10) });
const app = Fastify({ logger: false });

app.get('/ready', async () => ({ ok: true }));

if (userId && sessionId) {
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
}

if (replayFile) {
  const { rows } = JSON.parse(readFileSync(replayFile, 'utf8')) as ReplayFile;
  const turn = new Map<string, number>();
  // rowMode 'array' as the portal asked it (drizzle's selects), else objects.
  const send = (
    client: pg.Pool | pg.PoolClient,
    s: ReplayStatement,
  ): Promise<{ rows: unknown[] }> =>
    s.rowMode
      ? client.query({ text: s.text, values: s.values, name: s.name, rowMode: 'array' })
      : client.query({ text: s.text, values: s.values, name: s.name });
  app.get<{ Params: { key: string } }>('/row/:key', async (req, reply) => {
    const samples = rows[req.params.key];
    if (!samples?.length) return reply.code(404).send({ error: 'no such row' });
    const n = turn.get(req.params.key) ?? 0;
    turn.set(req.params.key, n + 1);
    const sample = samples[n % samples.length]!;
    const answers: unknown[][] = [];
    if (sample.transaction) {
      const client = await pool.connect();
      try {
        for (const [s] of sample.waves) answers.push((await send(client, s!)).rows);
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    } else {
      for (const wave of sample.waves) {
        for (const r of await Promise.all(wave.map((s) => send(pool, s)))) answers.push(r.rows);
      }
    }
    reply.header('cache-control', 'no-store');
    return { answers };
  });
}

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${address}`);
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
