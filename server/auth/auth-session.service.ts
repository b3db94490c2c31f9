// POST /token (password and refresh grants), GET /user and POST /logout.
import { eq } from 'drizzle-orm';
import type { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import type { DbOrTx } from '../db/client.ts';
import { users } from '../db/schema.ts';
import {
  blockedMessage,
  type Client,
  type Ctx,
  findUserByEmail,
  invalidCredentials,
  sessionJson,
  userNotFound,
} from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import type { AuthUser } from './guard.ts';
import {
  checkPasswordEvenly,
  claimSignInAttempt,
  signInPassed,
  warnOwnerOfFailures,
} from './login-throttle.ts';
import { listFactorsJson } from './mfa.service.ts';
import { passwordProblem, WEAK_PASSWORD_MESSAGE } from './password.ts';
import {
  createSession,
  endAllSessions,
  endOtherSessions,
  endSession,
  rotateRefreshToken,
} from './sessions.ts';
import { toGoTrueUser } from './user-json.ts';

/**
 * POST /token?grant_type=password. Order as GoTrue: credentials present, user known, not
 * blocked (before the password), password right, e-mail confirmed.
 */
export async function signInWithPassword(
  opts: Ctx & Client & { input: { email?: string; phone?: string; password?: string } },
): Promise<GoTrueSession> {
  const { db, config, input } = opts;
  const hasEmail = typeof input.email === 'string' && input.email !== '';
  const hasPhone = typeof input.phone === 'string' && input.phone !== '';
  if (hasEmail === hasPhone) {
    throw new GoTrueError(
      400,
      'validation_failed',
      hasEmail
        ? 'Only an email address or phone number should be provided on login.'
        : 'An email address or phone number is required to sign in.',
    );
  }
  const password = input.password ?? '';
  const email = hasEmail ? input.email!.trim().toLowerCase() : '';
  // Per-address throttle (login-throttle.ts): 429 while this address must wait.
  const attempt = await claimSignInAttempt(db, email);
  const user = hasEmail ? await findUserByEmail(db, email) : undefined;
  // One argon2 verification whatever the account, so timing does not tell blocked or unknown.
  const valid = await checkPasswordEvenly(user?.passwordHash, password);
  if (!user?.passwordHash || password === '') throw invalidCredentials();
  if (valid) await signInPassed(db, attempt);
  else if (user.status !== 'blocked') await warnOwnerOfFailures(db, config, attempt, user.email);
  if (user.status === 'blocked') {
    throw new GoTrueError(400, 'user_banned', await blockedMessage(db));
  }
  if (!valid) throw invalidCredentials();
  if (!user.emailConfirmedAt) {
    throw new GoTrueError(400, 'email_not_confirmed', 'Email not confirmed');
  }
  return db.transaction(async (tx) => {
    const now = new Date();
    const s = await createSession(tx, {
      userId: user.id,
      method: 'password',
      ip: opts.ip,
      userAgent: opts.userAgent,
    });
    const [updated] = await tx
      .update(users)
      .set({ lastSignInAt: now })
      .where(eq(users.id, user.id))
      .returning();
    const weak = passwordProblem(password) === 'length';
    return sessionJson(config, {
      user: updated!,
      factors: await listFactorsJson(tx, user.id),
      ...s,
      weakPassword: weak ? { message: WEAK_PASSWORD_MESSAGE, reasons: ['length'] } : undefined,
    });
  });
}

/** POST /token?grant_type=refresh_token: rotation with reuse detection (contract §7). */
export async function refreshSession(
  opts: Ctx & { refreshToken: string | undefined; reuseIntervalSeconds: number },
): Promise<GoTrueSession> {
  const { db, config } = opts;
  const token = opts.refreshToken ?? '';
  if (token === '') throw new GoTrueError(400, 'validation_failed', 'refresh_token required');
  if (token.length < 12 || token.length > 512 || !/^[A-Za-z0-9_-]+$/.test(token)) {
    throw new GoTrueError(400, 'validation_failed', 'Invalid refresh token format');
  }
  const out = await rotateRefreshToken(db, {
    secret: config.jwtSecret,
    token,
    reuseIntervalSeconds: opts.reuseIntervalSeconds,
  });
  if (out.kind === 'not_found') {
    throw new GoTrueError(
      400,
      'refresh_token_not_found',
      'Invalid Refresh Token: Refresh Token Not Found',
    );
  }
  if (out.kind === 'reused') {
    throw new GoTrueError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  }
  if (out.kind === 'banned') throw new GoTrueError(400, 'user_banned', await blockedMessage(db));
  return sessionJson(config, {
    // Read in the rotation's transaction: no second round trip for the answer.
    user: out.user,
    sessionId: out.sessionId,
    refreshToken: out.refreshToken,
    amr: out.amr,
    aal: out.aal,
    factors: await listFactorsJson(db, out.userId),
  });
}

/** GET /user: the signed-in user's GoTrue JSON. */
export async function getGoTrueUser(opts: { db: DbOrTx; actor: AuthUser }): Promise<GoTrueUser> {
  const [row] = await opts.db.select().from(users).where(eq(users.id, opts.actor.id));
  if (!row) throw userNotFound();
  return toGoTrueUser(row, await listFactorsJson(opts.db, row.id));
}

/** POST /logout's scopes: global ends every session, local this one, others all but this one. */
export const LOGOUT_SCOPES = {
  global: (db: DbOrTx, actor: AuthUser) => endAllSessions(db, actor.id),
  local: (db: DbOrTx, actor: AuthUser) => endSession(db, actor.sessionId),
  others: (db: DbOrTx, actor: AuthUser) => endOtherSessions(db, actor.id, actor.sessionId),
};

export type LogoutScope = keyof typeof LOGOUT_SCOPES;

export const isLogoutScope = (scope: string): scope is LogoutScope =>
  Object.hasOwn(LOGOUT_SCOPES, scope);

/** POST /logout: ends the sessions its scope names. */
export async function signOut(db: DbOrTx, actor: AuthUser, scope: LogoutScope): Promise<void> {
  await LOGOUT_SCOPES[scope](db, actor);
}
