// What the running portal does for other commands on its data folder (npm run create-admin,
// demo, backup): they send a request over DATA_DIR/portal.sock and the portal runs it on its own
// database, so the result is live at once and nothing opens the folder a second time.
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type OpHandler, OwnerOpError } from '../db/data-dir-owner.ts';
import { AppError } from '../errors.ts';
import { createAdmin, resetMfaByEmail } from '../modules/accounts/index.ts';
import type { Storage } from '../storage/storage.ts';
import { snapshotPglite } from './snapshot.ts';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The operations a running portal serves on its data folder's socket. */
export function ownerOps(deps: {
  database: Database;
  storage: Storage;
  config: Config;
}): Record<string, OpHandler> {
  const { database, storage, config } = deps;
  return {
    'create-admin': async (params) => {
      try {
        return await createAdmin(database.db, {
          email: str(params.email),
          password: str(params.password),
        });
      } catch (err) {
        if (err instanceof AppError) throw new OwnerOpError(err.message);
        throw err;
      }
    },

    'reset-mfa': async (params) => {
      try {
        return await resetMfaByEmail(database.db, str(params.email));
      } catch (err) {
        if (err instanceof AppError) throw new OwnerOpError(err.message);
        throw err;
      }
    },

    demo: async (params, ctx) => {
      if (config.nodeEnv === 'production') {
        throw new OwnerOpError(
          'npm run demo creates accounts that share one printed password, so it does not run against a portal started with NODE_ENV=production.',
        );
      }
      // The demo seeder lives with its script; loaded only when asked for.
      const demo = await import('../demo/demo-seed.service.ts');
      try {
        await demo.assertDemoTargetEmpty(database.db);
        const size = (params.size ?? {}) as { leads: number; publishers: number; buyers: number };
        const summary = await demo.seedDemoData({
          db: database.db,
          storage,
          password: str(params.password),
          size,
          seed: typeof params.seed === 'number' ? params.seed : undefined,
          onProgress: (line) => ctx.progress(line),
        });
        // The sign-in address is the running portal's, not the one the caller's config guesses.
        return { ...summary, publicUrl: config.publicUrl };
      } catch (err) {
        if (err instanceof demo.DemoRefusedError) throw new OwnerOpError(err.message);
        throw err;
      }
    },

    'backup-snapshot': async (_params, ctx) => {
      if (!database.pglite)
        throw new OwnerOpError('This portal does not run on the embedded database.');
      const snap = await snapshotPglite(database.pglite, (l) => ctx.progress(l));
      const sql = Buffer.from(snap.sql, 'utf8');
      for (let i = 0; i < sql.length; i += 256 * 1024) ctx.chunk(sql.subarray(i, i + 256 * 1024));
      return { counts: snap.counts, migration: snap.migration };
    },
  };
}
