import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role, UserStatus } from '../../contract/roles.ts';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, users } from '../db/schema.ts';
import { AppError } from '../errors.ts';
import { verifyAccessToken } from './tokens.ts';

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

/**
 * Resolves a bearer token: valid signature and expiry, and its session row still there
 * (a signed-out token stops working at once, not at `exp`). Null when anything fails.
 */
export async function resolveUser(
  db: DbOrTx,
  secret: string,
  token: string,
): Promise<AuthUser | null> {
  let claims: Awaited<ReturnType<typeof verifyAccessToken>>;
  try {
    claims = await verifyAccessToken(secret, token);
  } catch {
    return null;
  }
  if (typeof claims.session_id !== 'string' || !/^[0-9a-f-]{36}$/i.test(claims.session_id)) {
    return null;
  }
  if (typeof claims.sub !== 'string' || !/^[0-9a-f-]{36}$/i.test(claims.sub)) return null;
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      status: users.status,
      name: users.name,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.id, claims.session_id), eq(authSessions.userId, claims.sub)));
  if (!row) return null;
  return { ...row, sessionId: claims.session_id };
}

/** preHandler: 401 without a valid, live session; 403 for a blocked account. */
export async function requireAuth(req: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const token = bearerToken(req);
  if (!token) throw new AppError('unauthorized', 'Please sign in to continue.');
  const user = await resolveUser(req.server.db, req.server.config.jwtSecret, token);
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
