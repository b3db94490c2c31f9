import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../test/build-test-app.ts';
import { buildOffer, buildPublisher } from '../../test/factories.ts';
import {
  CHURNED_VACUUM_MAX_YIELDS,
  churnedVacuumRun,
  HOT_TABLES,
  vacuumChurnedTables,
  vacuumHotTables,
} from './report-fold.ts';

/**
 * The small tables every call updates in place are vacuumed by the portal itself, so their dead
 * row versions go even where autovacuum is off (PGlite has none).
 */

let database: Database;
let drop: () => Promise<void>;

/** One number about the leads table (`select … as n`). */
const leadsFigure = async (query: SQL) =>
  Number(rowsOf<{ n: string | number }>(await database.db.execute(query))[0]?.n ?? 0);

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase());
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const rowsOf = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('vacuum of the hot tables', () => {
  it('vacuums every one of them, leaving their figures as they were', async () => {
    const db = database.db;
    const pub = await buildPublisher(db);
    const offer = await buildOffer(db);
    // Approved calls one by one: each updates the publisher's balance row again.
    for (let i = 0; i < 5; i++) {
      await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
        values (${pub.id}, ${offer.id}, 10, 'approved', now())`);
    }
    const balance = async () =>
      rowsOf<{ earned: string }>(
        await db.execute(
          sql`select earned::text from publisher_balances where publisher_id = ${pub.id}`,
        ),
      )[0]?.earned;
    const before = await balance();
    expect(Number(before)).toBe(50);
    await vacuumHotTables(db);
    expect(await balance()).toBe(before);
    // Each vacuum is in the statistics (reported at the end of the command).
    const vacuumed = async () =>
      rowsOf<{ relname: string }>(
        await db.execute(sql`select relname from pg_stat_user_tables
          where last_vacuum is not null and relname = any(${`{${HOT_TABLES.join(',')}}`}::text[])`),
      ).map((r) => r.relname);
    for (let i = 0; i < 50 && (await vacuumed()).length < HOT_TABLES.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await vacuumed()).sort()).toEqual([...HOT_TABLES].sort());
  });
});

/** 100 new leads rewritten three times: 300 dead row versions for ~100 live ones. */
async function churnLeads(): Promise<void> {
  const db = database.db;
  const pub = await buildPublisher(db);
  const offer = await buildOffer(db);
  await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
    select ${pub.id}, ${offer.id}, 10, 'pending', now() from generate_series(1, 100)`);
  for (const status of ['approved', 'rejected', 'pending']) {
    await db.execute(sql`update leads set status = ${status} where offer_id = ${offer.id}`);
  }
  expect(await deadLeadsOnceReported((n) => n >= 300)).toBeGreaterThanOrEqual(300);
}

const deadLeads = () =>
  leadsFigure(sql`select n_dead_tup as n from pg_stat_user_tables where relname = 'leads'`);

/** The leads' dead rows once `done` holds (statistics are reported shortly after each command), or after 5 s. */
async function deadLeadsOnceReported(done: (n: number) => boolean): Promise<number> {
  for (let i = 0; i < 50 && !done(await deadLeads()); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return deadLeads();
}

describe('vacuum of the churned tables where nothing else vacuums them', () => {
  it('vacuums a table whose dead rows passed the threshold, and leaves the others', async () => {
    const db = database.db;
    await churnLeads();
    const { done: vacuumed } = await vacuumChurnedTables(db, { autovacuum: false });
    expect(vacuumed).toContain('leads');
    expect(vacuumed).not.toContain('campaigns');
    expect(await deadLeadsOnceReported((n) => n === 0)).toBe(0);
  });

  it('leaves its tables for a later run while the calls queue, and vacuums them after', async () => {
    const db = database.db;
    await churnLeads();
    const waiting = await vacuumChurnedTables(db, { autovacuum: false, yieldWhile: () => true });
    expect(waiting.done).toEqual([]);
    expect(waiting.left).toContain('leads');
    expect(await deadLeads()).toBeGreaterThanOrEqual(300);
    const after = await vacuumChurnedTables(db, { autovacuum: false, yieldWhile: () => false });
    expect(after).toEqual({ done: expect.arrayContaining(['leads']), left: [] });
    expect(await deadLeadsOnceReported((n) => n === 0)).toBe(0);
  });

  it('waits for a burst at most a few runs in a row, then vacuums whatever the load', async () => {
    const db = database.db;
    await churnLeads();
    const run = churnedVacuumRun(false, () => true);
    for (let i = 0; i < CHURNED_VACUUM_MAX_YIELDS; i++) expect(await run(db)).toEqual([]);
    expect(await deadLeads()).toBeGreaterThanOrEqual(300);
    expect(await run(db)).toContain('leads');
    expect(await deadLeadsOnceReported((n) => n === 0)).toBe(0);
  });

  it('analyzes a table that only grew, so the planner knows its rows', async () => {
    const db = database.db;
    const pub = await buildPublisher(db);
    const offer = await buildOffer(db);
    await vacuumChurnedTables(db, { autovacuum: false });
    const planned = () =>
      leadsFigure(sql`select reltuples as n from pg_class where relname = 'leads'`);
    const before = await planned();
    // Inserts only: no dead rows, but 2,000 rows the planner has not seen.
    await db.execute(sql`insert into leads (publisher_id, offer_id, payout, status, timestamp)
      select ${pub.id}, ${offer.id}, 10, 'pending', now() from generate_series(1, 2000)`);
    const changed = () =>
      leadsFigure(
        sql`select n_mod_since_analyze as n from pg_stat_user_tables where relname = 'leads'`,
      );
    for (let i = 0; i < 50 && (await changed()) < 2000; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await vacuumChurnedTables(db, { autovacuum: false })).done).toContain('leads');
    expect(await planned()).toBeGreaterThanOrEqual(before + 2000);
  });
});
