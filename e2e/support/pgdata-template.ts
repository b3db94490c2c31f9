import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * A migrated PGlite data folder the browser suite copies into each server's DATA_DIR, so a
 * server starts from the migrated schema instead of running every migration (9.2 s against
 * 4.1 s a start on this 2-core machine, ~30 starts a suite). Keyed by the migrations' content:
 * a changed or new migration makes a new one. `e2e/first-run.e2e.ts` keeps its empty folder,
 * so the first start of a real install stays covered.
 */

const root = path.resolve(import.meta.dirname, '../..');
const migrations = path.join(root, 'drizzle');

function migrationsHash(): string {
  const hash = createHash('sha256');
  const files = readdirSync(migrations)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const f of files) hash.update(f).update(readFileSync(path.join(migrations, f)));
  hash.update(readFileSync(path.join(migrations, 'meta/_journal.json')));
  return hash.digest('hex').slice(0, 16);
}

/** Where the template for today's migrations lives (it may not exist yet). */
export function pgdataTemplate(): string {
  return path.join(root, '.tmp', `e2e-pgdata-${migrationsHash()}`);
}

/** Makes the template when it is missing: migrated in a side folder, then renamed in place. */
export async function ensurePgdataTemplate(): Promise<void> {
  const target = pgdataTemplate();
  if (existsSync(target)) return;
  const { openPglite } = await import('../../server/db/client.ts');
  const side = `${target}.build-${process.pid}`;
  rmSync(side, { recursive: true, force: true });
  mkdirSync(path.dirname(side), { recursive: true });
  const database = await openPglite(side);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  try {
    renameSync(side, target);
  } catch {
    // Another suite on this machine made it meanwhile: theirs is the same.
    rmSync(side, { recursive: true, force: true });
  }
}
