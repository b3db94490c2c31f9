import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { currentUser } from '../auth/guard.ts';
import type { Db } from '../db/client.ts';
import { isLockTimeout } from '../db/pg-errors.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { registerJob } from '../jobs/runtime.ts';

/**
 * `Idempotency-Key` for POSTs that create money or records.
 *
 * A route opts in by answering through `respondIdempotently(req, reply, 201, (db) => create…)`.
 * With the header, the key is claimed in the SAME transaction as the write: the key row and the
 * records it protects commit together or not at all, so a crash, a dropped connection or a retry
 * can never leave a write without its key or a key without its write. A second request with the
 * key waits on the first (the primary key's row lock, across every instance sharing the
 * database), then gets the first response back (status and body, `Idempotent-Replayed: true`).
 * The same key with a different request is a 422. Keys are per user and forgotten after 24 h.
 * A request that failed stored nothing, so it can be retried with the same key.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a duplicate waits for the first request with its key before answering 409. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** Visible ASCII, 1-255 characters (a UUID is the usual choice). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The key sent with the request, undefined without one; a 400 when it is malformed. */
export function idempotencyKeyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const value = (Array.isArray(raw) ? raw : [raw]).map((v) => v.trim());
  if (value.length !== 1 || !KEY_PATTERN.test(value[0]!)) {
    const message =
      'The Idempotency-Key header must be one value of 1 to 255 visible characters (a UUID, for example).';
    throw new AppError('validation_failed', message, {
      details: { [IDEMPOTENCY_HEADER]: [message] },
    });
  }
  return value[0];
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same": method, route, path parameters and the validated body. */
export function requestFingerprint(req: FastifyRequest, body: unknown = req.body): string {
  return createHash('sha256')
    .update(
      canonical([req.method, req.routeOptions.url ?? req.url, req.params ?? {}, body ?? null]),
    )
    .digest('hex');
}

type Outcome = { status: number; body: unknown; replayed: boolean };

/**
 * Runs `create` and answers `status` with its result, exactly once per Idempotency-Key when the
 * request has one. `create` must do all its writes through the `db` it is given (it is the
 * transaction that also holds the key). `fingerprint` replaces the body hash for requests whose
 * body is not JSON (uploads): pass a hash of what makes them the same.
 */
export async function respondIdempotently<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  status: number,
  create: (db: Db) => Promise<T>,
  opts: { fingerprint?: string } = {},
): Promise<FastifyReply> {
  const key = idempotencyKeyOf(req);
  const app = req.server;
  if (key === undefined) return reply.status(status).send(await create(app.db));

  const userId = currentUser(req).id;
  const fingerprint = opts.fingerprint ?? requestFingerprint(req);
  const route = `${req.method} ${req.routeOptions.url ?? req.url.split('?')[0]}`;
  const thisKey = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  let outcome: Outcome;
  try {
    outcome = await app.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local lock_timeout = ${IDEMPOTENCY_WAIT_MS}`));
      // A key older than 24 hours is forgotten: this request starts afresh.
      await tx
        .delete(idempotencyKeys)
        .where(
          and(
            thisKey,
            lt(
              idempotencyKeys.createdAt,
              sql`now() - ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval`,
            ),
          ),
        );
      // Claim the key. A concurrent request with the same key waits here until the first one
      // commits (then finds its row) or rolls back (then claims the key itself).
      const claimed = await tx
        .insert(idempotencyKeys)
        .values({ userId, key, fingerprint, route })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length === 0) {
        const [first] = await tx.select().from(idempotencyKeys).where(thisKey);
        if (!first || first.responseStatus === null) throw stillRunning();
        if (first.fingerprint !== fingerprint) throw keyReused(first.route === route, route);
        return { status: first.responseStatus, body: first.responseBody, replayed: true };
      }
      // The wait limit was for the key only; the write's own locks wait as they always do.
      await tx.execute(sql.raw('reset lock_timeout'));
      const result = await create(tx as unknown as Db);
      // Stored as the JSON the client receives (dates as strings, undefined dropped).
      const body = result === undefined ? null : (JSON.parse(JSON.stringify(result)) as unknown);
      await tx
        .update(idempotencyKeys)
        .set({ responseStatus: status, responseBody: body })
        .where(thisKey);
      return { status, body, replayed: false };
    });
  } catch (err) {
    if (isLockTimeout(err) || (err instanceof AppError && err.code === 'idempotency_key_in_use')) {
      reply.header('retry-after', '1');
      throw stillRunning();
    }
    throw err;
  }
  if (outcome.replayed) reply.header(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  return reply.status(outcome.status).send(outcome.body);
}

const stillRunning = () =>
  new AppError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Try again in a moment.',
    { status: 409 },
  );

const keyReused = (sameRoute: boolean, route: string) =>
  new AppError(
    'idempotency_key_reused',
    sameRoute
      ? `This Idempotency-Key was already used for ${route} with a different body. Use a new key for a new request.`
      : `This Idempotency-Key was already used for another request. Use a new key for ${route}.`,
    { status: 422, details: { [IDEMPOTENCY_HEADER]: ['Already used for a different request.'] } },
  );

/** Deletes keys older than 24 hours, in batches; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  const gone = await db
    .delete(idempotencyKeys)
    .where(
      lt(idempotencyKeys.createdAt, sql`now() - ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval`),
    )
    .returning({ key: idempotencyKeys.key });
  return gone.length;
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Sweeps expired keys hourly: the cluster job `idempotency-key-sweep` (one instance a period). */
export const idempotencyPlugin = fp(
  async (app: FastifyInstance) => {
    registerJob(app, {
      name: 'idempotency-key-sweep',
      scope: 'cluster',
      everyMs: SWEEP_INTERVAL_MS,
      run: async ({ db, log }) => {
        const deleted = await deleteExpiredIdempotencyKeys(db);
        if (deleted > 0) log.info({ deleted }, 'forgot expired idempotency keys');
      },
    });
  },
  { name: 'idempotency' },
);
