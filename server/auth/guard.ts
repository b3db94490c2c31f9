import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MeProfile } from '../../contract/auth.ts';
import type { Role, UserStatus } from '../../contract/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, mfaFactors, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
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
  sessionId: string;
  /** The session's assurance level (aal2 after a second factor was verified in it). */
  aal: 'aal1' | 'aal2';
  /** True when the user has a verified second factor. */
  hasVerifiedFactor: boolean;
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
function buildGuardQuery(db: DbOrTx) {
  return db
    .select({
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
      sessionId: authSessions.id,
      aal: authSessions.aal,
      hasVerifiedFactor: sql<boolean>`exists (select 1 from ${mfaFactors} where ${mfaFactors.userId} = ${users.id} and ${mfaFactors.status} = 'verified')`,
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
  const user: AuthUser = {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    name: row.name,
    sessionId: row.sessionId,
    aal: row.aal === 'aal2' ? 'aal2' : 'aal1',
    hasVerifiedFactor: Boolean(row.hasVerifiedFactor),
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
export async function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = bearerToken(req);
  if (!token) throw new AppError('unauthorized', 'Please sign in to continue.');
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
