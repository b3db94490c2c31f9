import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, gt, lt, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { instanceHeartbeats, sharedSecrets } from '../db/schema.ts';
import { registerJob } from '../jobs/runtime.ts';

/** How often each instance refreshes its heartbeat row; seen = refreshed within 3 beats. */
export const HEARTBEAT_MS = 15_000;

/**
 * With PostgreSQL, the secrets an instance would otherwise generate for itself (JWT_SECRET,
 * the JWT_ALG private key) come from the database: the first instance stores its own, every
 * other one adopts it, so a token or signed file URL from one instance is valid on all.
 * Call under the start-up lock, after the migrations.
 */
export async function adoptSharedSecrets(database: Database, config: Config): Promise<Config> {
  if (database.kind !== 'postgres') return config;
  const share = async (name: string, mine: string) => {
    await database.db.insert(sharedSecrets).values({ name, value: mine }).onConflictDoNothing();
    const [row] = await database.db
      .select({ value: sharedSecrets.value })
      .from(sharedSecrets)
      .where(eq(sharedSecrets.name, name));
    return row?.value ?? mine;
  };
  const next = { ...config };
  if (config.generatedSecrets.jwtSecret)
    next.jwtSecret = await share('jwt-secret', config.jwtSecret);
  if (config.generatedSecrets.jwtPrivateKey && config.jwtPrivateKeyPem) {
    next.jwtPrivateKeyPem = await share(
      `jwt-${config.jwtAlg.toLowerCase()}-key`,
      config.jwtPrivateKeyPem,
    );
  }
  return next;
}

/**
 * A heartbeat row for this instance: the instance job `instance-heartbeat` writes it on start
 * and every HEARTBEAT_MS (on while the instance drains), and removes it on close. `onBeat` is
 * called at each beat with the other live instances (the start banner's warning about local
 * files uses it). Answers the row's id.
 */
export function registerHeartbeat(
  app: FastifyInstance,
  opts: { storage: 'local' | 's3'; onBeat?: (others: { host: string; pid: number }[]) => void },
): string {
  const id = randomUUID();
  registerJob(app, {
    name: 'instance-heartbeat',
    scope: 'instance',
    everyMs: HEARTBEAT_MS,
    firstRunMs: 0,
    whileDraining: true,
    run: async ({ db }) => {
      await db
        .insert(instanceHeartbeats)
        .values({ id, host: hostname(), pid: process.pid, storage: opts.storage })
        .onConflictDoUpdate({ target: instanceHeartbeats.id, set: { seenAt: sql`now()` } });
      // Rows of instances gone without a goodbye (killed) fade out.
      await db
        .delete(instanceHeartbeats)
        .where(lt(instanceHeartbeats.seenAt, sql`now() - interval '1 hour'`));
      if (!opts.onBeat) return;
      const others = await db
        .select({ host: instanceHeartbeats.host, pid: instanceHeartbeats.pid })
        .from(instanceHeartbeats)
        .where(
          and(
            ne(instanceHeartbeats.id, id),
            gt(
              instanceHeartbeats.seenAt,
              sql`now() - ${`${3 * HEARTBEAT_MS} milliseconds`}::interval`,
            ),
          ),
        );
      opts.onBeat(others);
    },
    onStop: ({ db }) => db.delete(instanceHeartbeats).where(eq(instanceHeartbeats.id, id)),
  });
  return id;
}
