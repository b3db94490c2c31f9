import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_PREFIX, apiKeyScopesByRole } from '../../contract/api-keys.ts';
import type { MeProfile } from '../../contract/auth.ts';
import type { Role, UserStatus } from '../../contract/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import { apiKeys, authSessions, mfaFactors, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { scopeForRoute } from './api-key-scopes.ts';
import { hashSecretKey } from './secret-keys.ts';
import {
  type AccessClaims,
  AUDIENCE,
  type JwtSigner,
  jwtSigner,
  verifyAccessToken,
  verifyAccessTokenCached,
} from './tokens.ts';

/** The signed-in user as the API sees it, loaded fresh on every request. */
export type AuthUser = {
  id: string;
  email: string;
  role: Role;
  status: UserStatus;
  name: string | null;
  /** The session's id; empty for a request made with an API key. */
  sessionId: string;
  /** The session's assurance level (aal2 after a second factor was verified in it). */
  aal: 'aal1' | 'aal2';
  /** True when the user has a verified second factor. */
  hasVerifiedFactor: boolean;
  /** The personal API key the request came with (issue 30); null for a signed-in session. */
  apiKey: { id: string; scopes: readonly string[] } | null;
  /** GET /api/v1/me's answer (but the MFA policy), read by the same statement as the rest. */
  profile: Omit<MeProfile, 'mfa_required'>;
};

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
}

export function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

export type BearerProblem =
  | 'bad_jwt'
  | 'bad_subject'
  | 'bad_audience'
  | 'user_not_found'
  | 'session_not_found';

export type BearerCheck =
  | { ok: true; user: AuthUser; claims: AccessClaims }
  | { ok: false; problem: BearerProblem; expired?: boolean };

/**
 * The one statement every signed-in request runs: the user's profile row, and whether the
 * token's session row still exists (a null session id matches no session). Prepared once per
 * database handle: drizzle builds the SQL text once, and PostgreSQL parses and plans it once per
 * connection. GET /api/v1/me answers from it without a second query. bench/me-sql.ts holds the
 * same text for the point-read ladder (a test keeps the two equal).
 */
/** The user's columns both guard statements read (the order is the bench's SQL text's). */
const profileColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  status: users.status,
  name: users.name,
  businessLegalName: users.businessLegalName,
  phoneNumber: users.phoneNumber,
  whatsappNumber: users.whatsappNumber,
  msTeamsId: users.msTeamsId,
  address: users.address,
  createdAt: users.createdAt,
};
const hasVerifiedFactor = sql<boolean>`exists (select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${users.id} and ${mfaFactors.status} = 'verified')`;

type ProfileRow = {
  id: string;
  email: string;
  role: Role;
  status: UserStatus;
  name: string | null;
  businessLegalName: string | null;
  phoneNumber: string | null;
  whatsappNumber: string | null;
  msTeamsId: string | null;
  address: string | null;
  createdAt: Date;
};

/** The signed-in user of a guard statement's row. */
function authUserOf(
  row: ProfileRow,
  via: Pick<AuthUser, 'sessionId' | 'aal' | 'hasVerifiedFactor' | 'apiKey'>,
): AuthUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    name: row.name,
    ...via,
    profile: {
      id: row.id,
      email: row.email,
      role: row.role,
      status: row.status,
      name: row.name,
      business_legal_name: row.businessLegalName,
      phone_number: row.phoneNumber,
      whatsapp_number: row.whatsappNumber,
      ms_teams_id: row.msTeamsId,
      address: row.address,
      created_at: row.createdAt.toISOString(),
    },
  };
}

function buildGuardQuery(db: DbOrTx) {
  return db
    .select({
      ...profileColumns,
      sessionId: authSessions.id,
      aal: authSessions.aal,
      hasVerifiedFactor,
    })
    .from(users)
    .leftJoin(
      authSessions,
      and(eq(authSessions.userId, users.id), eq(authSessions.id, sql.placeholder('sessionId'))),
    )
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('auth_guard');
}

const guardQueries = new WeakMap<DbOrTx, ReturnType<typeof buildGuardQuery>>();

function guardQuery(db: DbOrTx): ReturnType<typeof buildGuardQuery> {
  let q = guardQueries.get(db);
  if (!q) {
    q = buildGuardQuery(db);
    guardQueries.set(db, q);
  }
  return q;
}

/** The guard's SQL text as sent to PostgreSQL (the bench's bare route runs the same). */
export function guardSql(db: DbOrTx): string {
  return (guardQuery(db) as unknown as { queryString: string }).queryString;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks a bearer token and says what is wrong with it (GoTrue answers each case differently):
 * signature and expiry, a UUID subject, the audience, the user, and the session row still there.
 */
export async function inspectAccessToken(
  db: DbOrTx,
  secret: string | JwtSigner,
  token: string,
): Promise<BearerCheck> {
  let claims: AccessClaims;
  try {
    claims =
      typeof secret === 'string'
        ? await verifyAccessToken(secret, token, { checkAudience: false })
        : await verifyAccessTokenCached(secret, token);
  } catch (err) {
    const expired = (err as { code?: string }).code === 'ERR_JWT_EXPIRED';
    return { ok: false, problem: 'bad_jwt', expired };
  }
  if (typeof claims.sub !== 'string' || !UUID.test(claims.sub)) {
    return { ok: false, problem: 'bad_subject' };
  }
  if (claims.aud !== AUDIENCE) return { ok: false, problem: 'bad_audience' };
  const sessionId =
    typeof claims.session_id === 'string' && UUID.test(claims.session_id)
      ? claims.session_id
      : null;
  const [row] = await guardQuery(db).execute({ userId: claims.sub, sessionId });
  if (!row) return { ok: false, problem: 'user_not_found' };
  if (!row.sessionId) return { ok: false, problem: 'session_not_found' };
  const user = authUserOf(row, {
    sessionId: row.sessionId,
    aal: row.aal === 'aal2' ? 'aal2' : 'aal1',
    hasVerifiedFactor: Boolean(row.hasVerifiedFactor),
    apiKey: null,
  });
  return { ok: true, user, claims };
}

/**
 * Resolves a bearer token: valid signature and expiry, and its session row still there
 * (a signed-out token stops working at once, not at `exp`). Null when anything fails.
 */
export async function resolveUser(
  db: DbOrTx,
  secret: string | JwtSigner,
  token: string,
): Promise<AuthUser | null> {
  const check = await inspectAccessToken(db, secret, token);
  return check.ok ? check.user : null;
}

/** preHandler: 401 without a valid, live session; 403 for a blocked account. */
export async function requireAuth(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = bearerToken(req);
  if (!token) throw new AppError('unauthorized', 'Please sign in to continue.');
  if (isApiKey(token)) {
    req.user = await apiKeyUser(req, reply, token);
    return;
  }
  const user = await resolveUser(req.server.db, await jwtSigner(req.server.config), token);
  if (!user) {
    throw new AppError('unauthorized', 'Your session has ended. Please sign in again.');
  }
  if (user.status === 'blocked') {
    throw new AppError('forbidden', 'Your account is blocked.');
  }
  if (needsSecondFactor(user, req.server.config.mfaRequiredFor)) {
    throw new AppError(
      'insufficient_aal',
      'Enter the 6-digit code from your authenticator app to continue.',
      { status: 403 },
    );
  }
  req.user = user;
}

/**
 * MFA_REQUIRED_FOR: a user of such a role who has a verified factor must have verified it in
 * this session (aal2) before any /api/v1 call answers. Without a factor the session is aal1 and
 * passes: enrolment happens through /auth/v1/factors, which never needs aal2 to start.
 */
export function needsSecondFactor(
  user: Pick<AuthUser, 'role' | 'aal' | 'hasVerifiedFactor'>,
  requiredFor: readonly Role[],
): boolean {
  return requiredFor.includes(user.role) && user.hasVerifiedFactor && user.aal !== 'aal2';
}

const roleLabel: Record<Role, string> = {
  admin: 'administrators',
  publisher: 'publishers',
  buyer: 'buyers',
};

/** preHandler factory: requireAuth, then 403 unless the user has the role. */
export function requireRole(role: Role) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await requireAuth(req, reply);
    if (req.user!.role !== role) {
      throw new AppError('forbidden', `This area is for ${roleLabel[role]} only.`);
    }
  };
}

/** The signed-in user inside a handler guarded by requireAuth/requireRole. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new AppError('unauthorized', 'Please sign in to continue.');
  return req.user;
}

/** Who did something, as the audit log records them. */
export type Actor = { id: string; email: string };

// ---------------------------------------------------------------------------
// Personal API keys (issue 30): `Authorization: Bearer pk_…` on /api/v1
// ---------------------------------------------------------------------------

/** True when a bearer token is a personal API key rather than a session's JWT. */
export function isApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** A key's user and the key's own state, by the key's hash: one statement per request. */
function buildApiKeyQuery(db: DbOrTx) {
  return db
    .select({
      ...profileColumns,
      keyId: apiKeys.id,
      scopes: apiKeys.scopes,
      expiresAt: apiKeys.expiresAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_key_guard');
}

const apiKeyQueries = new WeakMap<DbOrTx, ReturnType<typeof buildApiKeyQuery>>();

/** The last-used time is written at most once a minute per key. */
export const LAST_USED_EVERY_MS = 60_000;

const MANAGE_KEYS = 'Create a new one under Profile → API keys.';

/**
 * The user of a personal API key, or the refusal a script's author can act on: 401 for a key
 * that is unknown, revoked or expired, or whose account is blocked; 429 past the key's rate
 * limit (API_KEY_RATE_LIMIT a minute); 403 on a route keys may not use or without the scope
 * it needs (server/auth/api-key-scopes.ts). The key acts as its user: the role guard and the
 * services' own checks still apply. No second factor is asked: the key was made in a session
 * that passed it.
 */
async function apiKeyUser(
  req: FastifyRequest,
  reply: FastifyReply,
  token: string,
): Promise<AuthUser> {
  const db = req.server.db;
  let q = apiKeyQueries.get(db);
  if (!q) {
    q = buildApiKeyQuery(db);
    apiKeyQueries.set(db, q);
  }
  const [row] = await q.execute({ keyHash: hashSecretKey(token) });
  if (!row) {
    throw new AppError(
      'unauthorized',
      `This API key is not valid: check that it was copied whole. ${MANAGE_KEYS}`,
    );
  }
  if (row.revokedAt) {
    throw new AppError('unauthorized', `This API key was revoked. ${MANAGE_KEYS}`);
  }
  const now = Date.now();
  if (row.expiresAt && row.expiresAt.getTime() <= now) {
    throw new AppError(
      'unauthorized',
      `This API key expired on ${row.expiresAt.toISOString()}. ${MANAGE_KEYS}`,
    );
  }
  if (row.status === 'blocked') {
    throw new AppError('unauthorized', 'The account this API key belongs to is blocked.');
  }
  const perMinute = req.server.config.apiKeyRateLimit;
  if (perMinute > 0) {
    const rule = { capacity: perMinute, refillPerSecond: perMinute / 60 };
    const taken = await req.server.rateLimits.take(`apikey:${row.keyId}`, rule);
    if (!taken.allowed) {
      const seconds = Math.max(1, taken.retryAfterSeconds);
      reply.header('retry-after', String(seconds));
      throw new AppError(
        'rate_limited',
        `This API key made more than ${perMinute} requests a minute. Try again in ${seconds} s.`,
      );
    }
  }
  const route = `${req.method} ${req.routeOptions.url}`;
  const scope = scopeForRoute(req.method, req.routeOptions.url ?? '');
  if (!scope) {
    throw new AppError(
      'api_key_not_allowed',
      `API keys cannot be used for ${route}: sign in to the portal for this.`,
      { status: 403 },
    );
  }
  const allowed = apiKeyScopesByRole[row.role] as readonly string[];
  if (scope !== 'any' && !(row.scopes.includes(scope) && allowed.includes(scope))) {
    throw new AppError(
      'api_key_scope',
      `This API key does not have the ${scope} scope that ${route} needs.`,
      { status: 403 },
    );
  }
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, row.keyId),
          sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} < now() - interval '1 minute')`,
        ),
      );
  }
  return authUserOf(row, {
    sessionId: '',
    aal: 'aal1',
    hasVerifiedFactor: false,
    apiKey: { id: row.keyId, scopes: row.scopes },
  });
}
