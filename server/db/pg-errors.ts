/**
 * Reading PostgreSQL and driver errors, whether or not drizzle wraps them (DrizzleQueryError keeps
 * the driver's error as `cause`): SQLSTATE codes, constraint names, and "the database is gone".
 */

/** The errors in a cause chain, outermost first (a few levels are plenty). */
function chain(err: unknown): object[] {
  const out: object[] = [];
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** The first SQLSTATE (five characters) in the cause chain, if any. */
export function sqlState(err: unknown): string | undefined {
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The constraint PostgreSQL names in the error, if any. */
export function constraintOf(err: unknown): string | undefined {
  for (const e of chain(err)) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string' && c) return c;
  }
  return undefined;
}

/** Postgres unique-violation (23505), whether or not the driver error is wrapped. */
export function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === '23505';
}

/** Postgres foreign-key violation (23503): the row referred to was deleted at the same moment. */
export function isForeignKeyViolation(err: unknown): boolean {
  return sqlState(err) === '23503';
}

/** A lock wait gave up (55P03, `lock_timeout`). */
export function isLockTimeout(err: unknown): boolean {
  return sqlState(err) === '55P03';
}

/** Socket-level codes Node reports when the database cannot be reached or the link broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What node-postgres and PGlite say, without a code, when the connection is gone. */
const GONE_MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error/i,
  /client was closed and is not queryable/i,
  /cannot use a pool after calling end/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /pglite is closed/i,
];

/**
 * True when an error means "the database is unreachable or went away", not "the request was
 * wrong": SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down, crashed, starting
 * up), 53300 (too many connections), a refused or reset socket, or node-postgres saying its
 * connection ended. Such a request is answered 503 with Retry-After; nothing in it was wrong.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of chain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
      if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
      if (NETWORK_CODES.has(code)) return true;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && GONE_MESSAGES.some((re) => re.test(message))) return true;
  }
  return false;
}

/** Seconds a client should wait before retrying when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// Also said when every pooled connection stays busy past the pool timeout: pg-pool gives both
// the same error. Not "nothing was changed": a connection lost during COMMIT leaves the outcome
// unknown, which is what Idempotency-Key retries are for.
export const databaseUnavailableMessage =
  'The database is busy or not reachable right now. Please try again in a few seconds.';

/** What a foreign-key race means to a person, by the constraint that fired. */
const foreignKeyMessages: Record<string, string> = {
  offer_applications_offer_id_offers_id_fk:
    'This offer was removed a moment ago, so you cannot apply to it.',
  leads_offer_id_offers_id_fk:
    'The selected offer was removed a moment ago, so the lead was not recorded.',
  leads_publisher_id_users_id_fk:
    'The selected publisher was removed a moment ago, so the lead was not recorded.',
  payouts_publisher_id_users_id_fk:
    'The selected publisher was removed a moment ago, so the payout was not recorded.',
  compliance_questionnaires_offer_id_offers_id_fk:
    'This offer was removed a moment ago, so the submission was not saved.',
  compliance_questionnaires_application_id_offer_applications_id_fk:
    'This application was removed a moment ago, so the submission was not saved.',
  campaigns_buyer_id_users_id_fk: 'Your account was removed, so the campaign was not saved.',
};

/**
 * A sentence for a foreign-key violation (23503). On insert it means the row referred to was
 * deleted at the same moment; on delete, that something still refers to the row.
 */
export function foreignKeyMessage(err: unknown): string {
  const deleting = chain(err).some((e) =>
    /^update or delete on table/i.test(String((e as { message?: unknown }).message ?? '')),
  );
  if (deleting) {
    return 'Other records were added for this one at the same moment, so it cannot be removed. Reload the page to see them.';
  }
  const constraint = constraintOf(err);
  const known = constraint ? foreignKeyMessages[constraint] : undefined;
  if (known) return known;
  return 'Something this request refers to was changed or removed at the same moment, so nothing was saved. Reload the page and try again.';
}
