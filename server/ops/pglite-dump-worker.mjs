// Runs in a worker thread of the process that owns the embedded database: loads a copy of the
// data folder (taken in one instant, like a crash image that PostgreSQL recovers) into a
// private in-memory PGlite and dumps it as plain SQL. pg_dump's WASM build runs synchronously,
// so doing it here keeps the portal's event loop free to serve requests meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgDump } from '@electric-sql/pglite-tools/pg_dump';

const { tar, args, countsSql } = workerData;
try {
  // The same extensions as the portal's PGlite (server/db/client.ts pgliteOptions).
  const pg = await PGlite.create({ loadDataDir: new Blob([tar]), extensions: { pg_trgm } });
  try {
    parentPort.postMessage({ progress: 'counting rows' });
    const tables = await pg.query(countsSql.tables);
    const counts = {};
    for (const { schema, name } of tables.rows) {
      const r = await pg.query(`select count(*)::int as n from "${schema}"."${name}"`);
      counts[`${schema}.${name}`] = r.rows[0].n;
    }
    const migration = await pg.query(countsSql.migration).catch(() => ({ rows: [] }));
    parentPort.postMessage({ progress: 'writing the SQL dump' });
    const file = await pgDump({ pg, args });
    const sql = await file.text();
    parentPort.postMessage({ done: { sql, counts, migration: migration.rows[0] ?? null } });
  } finally {
    await pg.close();
  }
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
