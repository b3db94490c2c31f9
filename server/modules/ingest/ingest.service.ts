import { BlockList, isIP } from 'node:net';
import { eq, lt, sql } from 'drizzle-orm';
import type { CallField, Tracker } from '../../../contract/ingest-mapping.ts';
import { KEY_HEADER, KEY_PARAM, REFUSAL_RETENTION_DAYS } from '../../../contract/integrations.ts';
import { presetOf } from '../../../contract/tracker-presets.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { ingestRefusals, integrations } from '../../db/schema.ts';
import { getSettings } from '../../db/settings.ts';
import { AppError } from '../../errors.ts';
import {
  hashIntegrationKey,
  type IngestOutcome,
  StaleIntegration,
  sameKeyHash,
  upsertCall,
} from './lead-ingest.ts';
import { effectiveMapping, type ReadConfig, readCall, redact } from './mapping.ts';
import { type Signature, verifySignature } from './signatures.ts';

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

  /** The flush in progress: the next one starts after it. */
  private running: Promise<void> = Promise.resolve();

  /**
   * Adds the counts to the integrations' rows; counts of a failed flush are kept for the next.
   * Flushes run one after the other, so when one resolves every count made before it was called
   * is written, including those another flush (the periodic job's) had already taken.
   */
  flush(db: Db): Promise<void> {
    const next = this.running.catch(() => undefined).then(() => this.flushNow(db));
    this.running = next;
    return next;
  }

  private async flushNow(db: Db): Promise<void> {
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

/** What ingestion needs of an integration row. */
export type IngestIntegration = {
  id: string;
  name: string;
  keyHash: string;
  revokedAt: Date | null;
  allowedIps: string[];
  fieldMap: Record<string, unknown>;
  tracker: string;
  callScope: string | null;
  timeZone: string | null;
  signature: { scheme: string; secret: string; header: string } | null;
  callIdFields: string[];
  secretParams: string[];
  /** updated_at as text, to the microsecond: what the write checks (see upsertCall). */
  updatedAt: string;
};

const ingestColumns = {
  id: integrations.id,
  name: integrations.name,
  keyHash: integrations.keyHash,
  revokedAt: integrations.revokedAt,
  allowedIps: integrations.allowedIps,
  fieldMap: integrations.fieldMap,
  tracker: integrations.tracker,
  callScope: integrations.callScope,
  timeZone: integrations.timeZone,
  signature: integrations.signature,
  callIdFields: integrations.callIdFields,
  secretParams: integrations.secretParams,
  updatedAt: sql<string>`${integrations.updatedAt}::text`,
};

/** One integration as ingestion reads it (the test console and the replay use it too). */
export async function ingestIntegrationById(
  db: DbOrTx,
  id: string,
): Promise<IngestIntegration | undefined> {
  const [row] = await db.select(ingestColumns).from(integrations).where(eq(integrations.id, id));
  return row;
}

type Keyed = IngestIntegration & { mapping: ReadConfig['mapping'] };

async function readIntegration(db: Db, hash: string): Promise<Keyed | undefined> {
  const [row] = await db
    .select(ingestColumns)
    .from(integrations)
    .where(eq(integrations.keyHash, hash));
  if (!row) {
    keyCache.delete(hash);
    return undefined;
  }
  const keyed = { ...row, mapping: effectiveMapping(row.tracker as Tracker, row.fieldMap) };
  remember(hash, keyed);
  return keyed;
}

/**
 * Integrations by key hash, per process, so an accepted postback costs one round trip (the
 * write), not two. Only keys that exist are kept, at most KEY_CACHE_MAX of them. An entry is
 * never trusted on its own: the write checks that the integration is unchanged and not
 * revoked (any change sets updated_at), and a refusal is decided on a fresh read, so a key
 * revoked or an address list changed on another instance takes effect at once here too.
 */
const keyCache = new Map<string, Keyed>();
const KEY_CACHE_MAX = 1000;

function remember(hash: string, row: Keyed) {
  if (!keyCache.has(hash) && keyCache.size >= KEY_CACHE_MAX) keyCache.clear();
  keyCache.set(hash, row);
}

async function cachedIntegration(db: Db, hash: string): Promise<Keyed | undefined> {
  return keyCache.get(hash) ?? readIntegration(db, hash);
}

/**
 * The network's phone country, read at most every PHONE_COUNTRY_TTL_MS per database: a change
 * in Settings reaches ingestion within seconds without a read per call.
 */
const PHONE_COUNTRY_TTL_MS = 5000;
const phoneCountries = new WeakMap<object, { country: string; at: number }>();
export async function phoneCountryOf(db: DbOrTx): Promise<string> {
  const hit = phoneCountries.get(db);
  if (hit && Date.now() - hit.at < PHONE_COUNTRY_TTL_MS) return hit.country;
  const country = (await getSettings(db)).phoneCountry;
  phoneCountries.set(db, { country, at: Date.now() });
  return country;
}

/** How an integration reads a postback. */
export function readConfigOf(
  i: Pick<
    IngestIntegration,
    'tracker' | 'fieldMap' | 'timeZone' | 'callIdFields' | 'secretParams'
  > & {
    mapping?: ReadConfig['mapping'];
  },
  phoneCountry: string,
): ReadConfig {
  const tracker = i.tracker as Tracker;
  const preset = presetOf(tracker);
  return {
    tracker,
    mapping: i.mapping ?? effectiveMapping(tracker, i.fieldMap),
    tokens: preset.tokens,
    timeZone: i.timeZone,
    callIdFields: i.callIdFields as CallField[],
    secretParams: [...preset.secretParams, ...i.secretParams],
    phoneCountry,
  };
}

/** Headers that may hold a secret: never stored with a refused call. */
const secretHeaders = new Set([KEY_HEADER, 'authorization', 'cookie', 'proxy-authorization']);

function keptHeaders(
  headers: Record<string, string | string[] | undefined>,
  extra: readonly string[],
) {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || secretHeaders.has(k.toLowerCase())) continue;
    out[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return redact(out, extra) as Record<string, string>;
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
  /** The parsed body: an object (JSON or form), or null. */
  body: unknown;
  /** The body as received ('' for none): what signatures cover. */
  rawBody: string;
  /** True when the body was a form (Twilio signs form parameters). */
  form: boolean;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  /** The URL as the tracker called it: PUBLIC_URL + path + query. */
  url: string;
};

const refuse = (status: number, code: string, message: string): IngestOutcome => ({
  status,
  code,
  message,
});

/** Checks the integration's signature, if it has one: a refusal, or null when it passes. */
export function signatureRefusal(i: IngestIntegration, req: IngestRequest): IngestOutcome | null {
  if (!i.signature) return null;
  const ok = verifySignature(i.signature as Signature, {
    url: req.url,
    headers: req.headers,
    rawBody: req.rawBody,
    form: req.form ? (req.body as Record<string, string | string[]>) : null,
  });
  if (ok) return null;
  return refuse(
    401,
    'bad_signature',
    `The request's ${i.signature.scheme} signature (header ${i.signature.header}) is missing or does not match the secret set on integration "${i.name}".`,
  );
}

/**
 * A postback's parameters (query and body merged, key already checked) into a lead: a bad
 * field is a 400 naming it, an unknown publisher/offer a 422 with the reason. The endpoint and
 * the admin's replay of a refused call both answer with this.
 */
export async function ingestParams(opts: {
  db: DbOrTx;
  integration: IngestIntegration & { mapping?: ReadConfig['mapping'] };
  params: Record<string, unknown>;
  /** See upsertCall: StaleIntegration is thrown when the integration changed since then. */
  unchangedSince?: string;
  /** See upsertCall: written with the calls arriving at the same time (the endpoint). */
  batched?: boolean;
}): Promise<IngestOutcome> {
  const { integration } = opts;
  const config = readConfigOf(integration, await phoneCountryOf(opts.db));
  const read = readCall(opts.params, config);
  if (!read.ok) {
    return {
      status: 400,
      code: 'validation_failed',
      message: read.message,
      details: { [read.field]: [read.message] },
    };
  }
  try {
    const answer = await upsertCall({
      db: opts.db,
      integrationId: integration.id,
      scope: integration.callScope ?? integration.id,
      call: read.call,
      unchangedSince: opts.unchangedSince,
      batched: opts.batched,
    });
    return { status: 200, answer };
  } catch (err) {
    if (err instanceof AppError && err.status === 422) {
      return { status: 422, code: err.code, message: err.message };
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------
// The endpoint under attack (issue 26, item 8)
// ---------------------------------------------------------------------------

/**
 * Refusals per source address: REFUSAL_BURST at once, refilled at REFUSALS_PER_MINUTE. An
 * address past it is answered 429 with Retry-After, before any database work, until it has
 * budget again; an address whose key is a known integration's is never held back by this.
 */
export const REFUSAL_BURST = 60;
export const REFUSALS_PER_MINUTE = 60;
/** At most this many refused calls of one integration are stored per minute; the rest counted. */
export const STORED_REFUSALS_PER_MINUTE = 600;
/** The refusal log keeps at most this many rows per integration (the sweep trims the oldest). */
export const REFUSALS_KEPT_PER_INTEGRATION = 10_000;

type Bucket = { tokens: number; at: number };

/** Per-process counters of the endpoint's refusals. */
export class RefusalGuard {
  private readonly buckets = new Map<string, Bucket>();
  private readonly stored = new Map<string, { minute: number; n: number }>();
  /** Requests without a valid key, per address, since the last report (counted, not stored). */
  unauthorized = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private level(ip: string): Bucket {
    const now = this.now();
    const b = this.buckets.get(ip) ?? { tokens: REFUSAL_BURST, at: now };
    b.tokens = Math.min(REFUSAL_BURST, b.tokens + ((now - b.at) / 60_000) * REFUSALS_PER_MINUTE);
    b.at = now;
    return b;
  }

  /** Seconds to wait when the address has used up its refusals, else 0. */
  retryAfter(ip: string): number {
    const b = this.level(ip);
    if (b.tokens >= 1) return 0;
    return Math.max(1, Math.ceil(((1 - b.tokens) * 60) / REFUSALS_PER_MINUTE));
  }

  /** Counts one refusal of the address. */
  refused(ip: string): void {
    const b = this.level(ip);
    b.tokens = Math.max(0, b.tokens - 1);
    this.buckets.set(ip, b);
    if (this.buckets.size > 100_000) this.forgetFull();
  }

  /** True while the integration may still store a refused call this minute. */
  mayStore(integrationId: string): boolean {
    const minute = Math.floor(this.now() / 60_000);
    const s = this.stored.get(integrationId);
    if (!s || s.minute !== minute) {
      this.stored.set(integrationId, { minute, n: 1 });
      return true;
    }
    s.n++;
    return s.n <= STORED_REFUSALS_PER_MINUTE;
  }

  countUnauthorized(ip: string): void {
    if (this.unauthorized.size < 10_000 || this.unauthorized.has(ip)) {
      this.unauthorized.set(ip, (this.unauthorized.get(ip) ?? 0) + 1);
    }
  }

  private forgetFull() {
    for (const [ip, b] of this.buckets) if (b.tokens >= REFUSAL_BURST - 1) this.buckets.delete(ip);
  }
}

/** Reads, checks and stores one postback: a lead, or a refusal kept for the admin. */
export async function ingestCall(opts: {
  db: Db;
  usage: UsageCounter;
  guard: RefusalGuard;
  req: IngestRequest;
}): Promise<IngestOutcome & { retryAfter?: number }> {
  const { db, usage, guard, req } = opts;
  const body = req.body ?? null;
  let integration: Keyed | undefined;
  let validKey = false;
  const headerKey = req.headers[KEY_HEADER];
  const queryKey = req.query[KEY_PARAM];
  const bodyKey =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)[KEY_PARAM]
      : undefined;
  const rawKey = (Array.isArray(headerKey) ? headerKey[0] : headerKey) ?? queryKey ?? bodyKey;
  const key = typeof rawKey === 'string' ? rawKey.trim() : '';
  const hash = key ? hashIntegrationKey(key) : '';

  // An address that used up its refusals waits, unless it holds a key we know.
  const wait = guard.retryAfter(req.ip);
  if (wait > 0 && !(hash && keyCache.has(hash))) {
    guard.countUnauthorized(req.ip);
    return {
      status: 429,
      code: 'too_many_refusals',
      message: `Too many refused calls from ${req.ip}: try again in ${wait} s (check the integration key and settings).`,
      retryAfter: wait,
    };
  }

  const outcome = await (async (): Promise<IngestOutcome> => {
    if (body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      return refuse(400, 'validation_failed', 'The body must be a JSON object or a form.');
    }
    const params: Record<string, unknown> = { ...req.query, ...(body as object | null) };
    if (!key) {
      return refuse(
        401,
        'missing_key',
        `No integration key: send it in the ${KEY_HEADER} header or the ${KEY_PARAM} parameter.`,
      );
    }
    // A refusal is decided on a fresh read; an acceptance may start from the cache, whose
    // entry the write itself checks (upsertCall's unchangedSince), so it is never stale.
    // An admin may change the integration between a fresh read and the write: read again, a
    // few times, rather than answer 500 to the tracker.
    for (let attempt = 0; ; attempt++) {
      const fresh = attempt > 0;
      integration = fresh ? await readIntegration(db, hash) : await cachedIntegration(db, hash);
      if (!integration || !sameKeyHash(integration.keyHash, hash)) {
        integration = undefined;
        return refuse(401, 'invalid_key', 'This integration key is not valid.');
      }
      validKey = true;
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
      const badSignature = signatureRefusal(integration, req);
      if (badSignature) {
        if (!fresh) continue;
        return badSignature;
      }
      try {
        const outcome = await ingestParams({
          db,
          integration,
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

  if (integration) usage.count(integration.id, outcome.status === 200 ? 'accepted' : 'refused');
  if ('answer' in outcome) {
    const marker = integration && presetOf(integration.tracker as Tracker).twimlWhen;
    const carries = (o: unknown) => !!o && typeof o === 'object' && Object.hasOwn(o, marker!);
    return marker && (carries(req.query) || carries(body)) ? { ...outcome, twiml: true } : outcome;
  }
  guard.refused(req.ip);
  // Only a request with a valid key is kept (it can be replayed); the rest is counted.
  if (!validKey || !integration) {
    guard.countUnauthorized(req.ip);
    return outcome;
  }
  if (!guard.mayStore(integration.id)) return outcome;
  const extra = [
    ...presetOf(integration.tracker as Tracker).secretParams,
    ...integration.secretParams,
  ];
  await db.insert(ingestRefusals).values({
    integrationId: integration.id,
    httpStatus: outcome.status,
    code: 'code' in outcome ? outcome.code : 'refused',
    reason: 'message' in outcome ? outcome.message : '',
    method: req.method,
    query: withoutKey(redact(req.query, extra)) as Record<string, unknown>,
    body: withoutKey(redact(body, extra)),
    headers: keptHeaders(req.headers, [...extra, integration.signature?.header ?? '']),
    ip: req.ip,
  });
  return outcome;
}

const withoutKey = (o: unknown): unknown => {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return o;
  const { [KEY_PARAM]: _key, ...rest } = o as Record<string, unknown>;
  return rest;
};

/**
 * Deletes refused calls older than REFUSAL_RETENTION_DAYS, and those past the newest
 * REFUSALS_KEPT_PER_INTEGRATION of an integration; answers how many.
 */
export async function deleteOldRefusals(opts: { db: Db; now?: Date }): Promise<number> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - REFUSAL_RETENTION_DAYS * 86_400_000);
  const gone = await opts.db
    .delete(ingestRefusals)
    .where(lt(ingestRefusals.createdAt, cutoff))
    .returning({ id: ingestRefusals.id });
  const trimmed = await opts.db.execute(sql`
    delete from ingest_refusals r using (
      select i.id, (select x.created_at from ingest_refusals x where x.integration_id = i.id
                    order by x.created_at desc offset ${REFUSALS_KEPT_PER_INTEGRATION - 1} limit 1) as edge
      from integrations i) e
    where r.integration_id = e.id and e.edge is not null and r.created_at < e.edge
    returning r.id`);
  const rows = (trimmed as unknown as { rows?: unknown[] }).rows ?? [];
  return gone.length + rows.length;
}
