import { BlockList, isIP } from 'node:net';
import { eq, lt, sql } from 'drizzle-orm';
import {
  type FieldMap,
  KEY_HEADER,
  KEY_PARAM,
  REFUSAL_RETENTION_DAYS,
} from '../../../contract/integrations.ts';
import type { Db } from '../../db/client.ts';
import {
  hashIntegrationKey,
  type IngestOutcome,
  ingestParams,
  StaleIntegration,
  sameKeyHash,
} from '../../db/lead-ingest.ts';
import { ingestRefusals, integrations } from '../../db/schema.ts';

/**
 * "Every use is audited" without an audit row per call (1,500 calls/s would make the audit log
 * the hottest table): an accepted call is recorded by its lead (integration_id, last_event_at);
 * a refused one by its raw request in ingest_refusals; per integration, the number of accepted
 * and refused calls and the last-use time are counted here in memory and added to the
 * integration's row every USAGE_FLUSH_MS (one UPDATE per integration per flush, so a busy
 * tracker does not serialize on that row). Admin actions write the audit log as usual.
 */
export const USAGE_FLUSH_MS = 2000;

type Tally = { accepted: number; refused: number; lastUsedAt: Date };

/** Per-process usage counts waiting to be flushed. */
export class UsageCounter {
  private tallies = new Map<string, Tally>();

  count(integrationId: string, outcome: 'accepted' | 'refused'): void {
    const t = this.tallies.get(integrationId) ?? {
      accepted: 0,
      refused: 0,
      lastUsedAt: new Date(),
    };
    t[outcome]++;
    t.lastUsedAt = new Date();
    this.tallies.set(integrationId, t);
  }

  /** Adds the counts to the integrations' rows; counts of a failed flush are kept for the next. */
  async flush(db: Db): Promise<void> {
    const batch = this.tallies;
    this.tallies = new Map();
    for (const [id, t] of batch) {
      try {
        await db
          .update(integrations)
          .set({
            acceptedCount: sql`${integrations.acceptedCount} + ${t.accepted}`,
            refusedCount: sql`${integrations.refusedCount} + ${t.refused}`,
            lastUsedAt: sql`greatest(${integrations.lastUsedAt}, ${t.lastUsedAt.toISOString()}::timestamptz)`,
          })
          .where(eq(integrations.id, id));
      } catch (err) {
        const later = this.tallies.get(id);
        this.tallies.set(id, {
          accepted: t.accepted + (later?.accepted ?? 0),
          refused: t.refused + (later?.refused ?? 0),
          lastUsedAt: later?.lastUsedAt ?? t.lastUsedAt,
        });
        throw err;
      }
    }
  }
}

type KeyedIntegration = {
  id: string;
  name: string;
  keyHash: string;
  revokedAt: Date | null;
  allowedIps: string[];
  fieldMap: FieldMap;
  /** updated_at as text, to the microsecond: what the write checks (see upsertCall). */
  updatedAt: string;
};

async function readIntegration(db: Db, hash: string): Promise<KeyedIntegration | undefined> {
  const [row] = await db
    .select({
      id: integrations.id,
      name: integrations.name,
      keyHash: integrations.keyHash,
      revokedAt: integrations.revokedAt,
      allowedIps: integrations.allowedIps,
      fieldMap: integrations.fieldMap,
      updatedAt: sql<string>`${integrations.updatedAt}::text`,
    })
    .from(integrations)
    .where(eq(integrations.keyHash, hash));
  if (row) remember(hash, row);
  else keyCache.delete(hash);
  return row;
}

/**
 * Integrations by key hash, per process, so an accepted postback costs one round trip (the
 * write), not two. Only keys that exist are kept, at most KEY_CACHE_MAX of them. An entry is
 * never trusted on its own: the write checks that the integration is unchanged and not
 * revoked (any change sets updated_at), and a refusal is decided on a fresh read, so a key
 * revoked or an address list changed on another instance takes effect at once here too.
 */
const keyCache = new Map<string, KeyedIntegration>();
const KEY_CACHE_MAX = 1000;

function remember(hash: string, row: KeyedIntegration) {
  if (!keyCache.has(hash) && keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(hash, row);
}

async function cachedIntegration(db: Db, hash: string): Promise<KeyedIntegration | undefined> {
  return keyCache.get(hash) ?? readIntegration(db, hash);
}

/** Headers that may hold a secret: never stored with a refused call. */
const secretHeaders = new Set([KEY_HEADER, 'authorization', 'cookie', 'proxy-authorization']);

const withoutKey = (o: unknown): unknown => {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
  const { [KEY_PARAM]: _key, ...rest } = o as Record<string, unknown>;
  return rest;
};

function keptHeaders(headers: Record<string, string | string[] | undefined>) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || secretHeaders.has(k.toLowerCase())) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** True when `ip` is in one of the allowed addresses or CIDR ranges (none = any source). */
export function isIpAllowed(ip: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  const list = new BlockList();
  for (const entry of allowed) {
    const [addr, bits] = entry.split('/') as [string, string | undefined];
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(bits), type);
  }
  // An IPv4 client seen through an IPv6 socket (::ffff:203.0.113.5) is its IPv4 address.
  const plain = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const kind = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  return isIP(plain) !== 0 && list.check(plain, kind);
}

export type IngestRequest = {
  method: string;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
};

const refuse = (status: number, code: string, message: string): IngestOutcome => ({
  status,
  code,
  message,
});

/** Reads, checks and stores one postback: a lead, or a refusal kept for the admin. */
export async function ingestCall(opts: {
  db: Db;
  usage: UsageCounter;
  req: IngestRequest;
}): Promise<IngestOutcome> {
  const { db, usage, req } = opts;
  const body = req.body ?? null;
  let integrationId: string | null = null;
  const outcome = await (async (): Promise<IngestOutcome> => {
    if (body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      return refuse(400, 'validation_failed', 'The body must be a JSON object or a form.');
    }
    const params: Record<string, unknown> = { ...req.query, ...(body as object | null) };
    const headerKey = req.headers[KEY_HEADER];
    const rawKey = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? params[KEY_PARAM];
    const key = typeof rawKey === 'string' ? rawKey.trim() : '';
    if (!key) {
      return refuse(
        401,
        'missing_key',
        `No integration key: send it in the ${KEY_HEADER} header or the ${KEY_PARAM} parameter.`,
      );
    }
    const hash = hashIntegrationKey(key);
    // A refusal is decided on a fresh read; an acceptance may start from the cache, whose
    // entry the write itself checks (ingestParams' unchangedSince), so it is never stale.
    // An admin may change the integration between a fresh read and the write: read again, a
    // few times, rather than answer 500 to the tracker.
    for (let attempt = 0; ; attempt++) {
      const fresh = attempt > 0;
      const integration = fresh
        ? await readIntegration(db, hash)
        : await cachedIntegration(db, hash);
      if (!integration || !sameKeyHash(integration.keyHash, hash)) {
        return refuse(401, 'invalid_key', 'This integration key is not valid.');
      }
      integrationId = integration.id;
      if (integration.revokedAt) {
        if (!fresh) continue;
        return refuse(
          401,
          'key_revoked',
          `The key of integration "${integration.name}" was revoked on ${integration.revokedAt.toISOString()}; ask the network for a new one.`,
        );
      }
      if (!isIpAllowed(req.ip, integration.allowedIps)) {
        if (!fresh) continue;
        return refuse(
          403,
          'ip_not_allowed',
          `Calls from ${req.ip} are not allowed for integration "${integration.name}"; add the address on the Integrations screen.`,
        );
      }
      try {
        const outcome = await ingestParams({
          db,
          integrationId: integration.id,
          fieldMap: integration.fieldMap,
          params,
          unchangedSince: integration.updatedAt,
          batched: true,
        });
        // A refusal read by a cached mapping (a field not found under its old name) is
        // decided again on a fresh read (the next turn of the loop).
        if (outcome.status === 200 || fresh) return outcome;
      } catch (err) {
        // Changed or revoked since it was cached: nothing was written; read it again.
        if (!(err instanceof StaleIntegration) || attempt >= 3) throw err;
      }
    }
  })();

  if (integrationId) usage.count(integrationId, outcome.status === 200 ? 'accepted' : 'refused');
  if (outcome.status !== 200) {
    await db.insert(ingestRefusals).values({
      integrationId,
      httpStatus: outcome.status,
      code: 'code' in outcome ? outcome.code : 'refused',
      reason: 'message' in outcome ? outcome.message : '',
      method: req.method,
      query: withoutKey(req.query) as Record<string, unknown>,
      body: withoutKey(body),
      headers: keptHeaders(req.headers),
      ip: req.ip,
    });
  }
  return outcome;
}

/** Deletes refused calls older than REFUSAL_RETENTION_DAYS; answers how many. */
export async function deleteOldRefusals(opts: { db: Db; now?: Date }): Promise<number> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - REFUSAL_RETENTION_DAYS * 86_400_000);
  const gone = await opts.db
    .delete(ingestRefusals)
    .where(lt(ingestRefusals.createdAt, cutoff))
    .returning({ id: ingestRefusals.id });
  return gone.length;
}
