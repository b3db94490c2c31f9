import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, UserStatus } from '../../contract/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import {
  type AccessClaims,
  AUDIENCE,
  type JwtSigner,
  jwtSigner,
  verifyAccessToken,
} from './tokens.ts';

/** The signed-in user as the API sees it, loaded fresh on every request. */
export type AuthUser = {
  id: string;
  email: string;
  role: Role;
  status: UserStatus;
  name: string | null;
  sessionId: string;
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
    claims = await verifyAccessToken(secret, token, { checkAudience: false });
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
  // One query for both: the user, and whether the token's session row still exists.
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      status: users.status,
      name: users.name,
      sessionId: authSessions.id,
    })
    .from(users)
    .leftJoin(
      authSessions,
      and(
        eq(authSessions.userId, users.id),
        sessionId ? eq(authSessions.id, sessionId) : sql`false`,
      ),
    )
    .where(eq(users.id, claims.sub));
  if (!row) return { ok: false, problem: 'user_not_found' };
  if (!row.sessionId) return { ok: false, problem: 'session_not_found' };
  const { sessionId: _s, ...user } = row;
  return { ok: true, user: { ...user, sessionId: row.sessionId }, claims };
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
  req.user = user;
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
