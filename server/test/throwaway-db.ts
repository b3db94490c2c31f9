import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own on a PostgreSQL server, for one test file or one e2e server. */
export type ThrowawayDatabase = { url: string; drop: () => Promise<void> };

/**
 * Creates an empty database `<prefix>_<time>_<random>` on the server of `adminUrl` (a user who
 * may create databases); `drop` removes it again, ending the connections still open to it.
 */
export async function throwawayDatabase(
  adminUrl: string,
  prefix: string,
): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
