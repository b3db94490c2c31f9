// PUT /user (metadata, e-mail change, password change) and GET /reauthenticate.
import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { GoTrueUser } from '../../contract/auth.ts';
import { normalizeEmail } from '../../contract/email.ts';
import type { DbOrTx } from '../db/client.ts';
import { authSessions, oneTimeTokens, users } from '../db/schema.ts';
import {
  type Ctx,
  checkMailGap,
  checkNewPassword,
  emailTaken,
  findUserByEmail,
  invalidEmail,
  lockUser,
  mailLink,
  REAUTHENTICATION_VALIDITY_SECONDS,
  storeOneTimeToken,
  USER_METADATA_MAX_BYTES,
  userNotFound,
} from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import { enqueueAuthMail } from './auth-mails.ts';
import type { AuthUser } from './guard.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { endOtherSessions } from './sessions.ts';
import { hashToken } from './tokens.ts';
import { toGoTrueUser } from './user-json.ts';

/** Merges GoTrue-style: a key set to null is removed, any other value replaces the old one. */
function mergeMetadata(
  current: Record<string, unknown>,
  updates: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(updates)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  if (Buffer.byteLength(JSON.stringify(merged)) > USER_METADATA_MAX_BYTES) {
    throw new GoTrueError(
      400,
      'validation_failed',
      `User metadata cannot be larger than ${USER_METADATA_MAX_BYTES / 1024} KB.`,
    );
  }
  return merged;
}

/** True when the session was started by a recovery link (its AMR says so). */
function isRecoverySession(amr: { method: string }[]): boolean {
  return amr.some((a) => a.method === 'recovery');
}

const invalidNonce = () =>
  new GoTrueError(400, 'reauthentication_not_valid', 'Nonce has expired or is invalid');

/** What the reauthentication code is stored as: hashed together with the user's id. */
const nonceHash = (userId: string, code: string) => hashToken(`${userId}:${code}`);

/**
 * Checks and uses up the reauthentication code. A wrong code also discards the pending one, so a
 * thief gets one guess per mailed code (and mails are 60 s apart).
 */
async function consumeNonce(tx: DbOrTx, userId: string, nonce: string): Promise<void> {
  const [pending] = await tx
    .delete(oneTimeTokens)
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.tokenType, 'reauthentication')))
    .returning();
  if (!pending || pending.expiresAt.getTime() <= Date.now()) throw invalidNonce();
  const given = Buffer.from(nonceHash(userId, nonce.trim()));
  const stored = Buffer.from(pending.tokenHash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw invalidNonce();
}

/**
 * The new password's hash for PUT /user, after GoTrue's checks: not the current password, and
 * the mailed nonce when the session is older than AUTH_REAUTHENTICATE_AFTER (not in a recovery
 * session).
 */
async function newPasswordHash(
  opts: Ctx & { actor: AuthUser; password: string; nonce: string | undefined },
): Promise<string> {
  const { db, config, actor, password } = opts;
  const [session] = await db
    .select({ createdAt: authSessions.createdAt, amr: authSessions.amr })
    .from(authSessions)
    .where(eq(authSessions.id, actor.sessionId));
  const ageSeconds = session ? (Date.now() - session.createdAt.getTime()) / 1000 : Infinity;
  const needsNonce =
    !session || (!isRecoverySession(session.amr) && ageSeconds >= config.authReauthenticateAfter);
  if (needsNonce && !opts.nonce) {
    throw new GoTrueError(
      400,
      'reauthentication_needed',
      'Password update requires reauthentication',
    );
  }
  const [current] = await db.select().from(users).where(eq(users.id, actor.id));
  if (current?.passwordHash && (await verifyPassword(current.passwordHash, password))) {
    throw new GoTrueError(
      422,
      'same_password',
      'New password should be different from the old password.',
    );
  }
  const passwordHash = await hashPassword(password);
  // Outside the update's transaction, so a wrong guess stays spent even though it fails.
  if (needsNonce) await consumeNonce(db, actor.id, opts.nonce ?? '');
  return passwordHash;
}

/**
 * PUT /user as GoTrue has it: `data` merges into user_metadata (never role, status or the
 * profile columns), `email` starts an e-mail change confirmed from the new address, `password`
 * changes the password (outside a recovery session, sessions older than
 * AUTH_REAUTHENTICATE_AFTER need the `nonce` mailed by GET /reauthenticate). A password change
 * ends the user's other sessions and clears pending links.
 */
export async function updateUser(
  opts: Ctx & {
    actor: AuthUser;
    input: {
      password?: string;
      email?: string;
      data?: Record<string, unknown>;
      nonce?: string;
    };
    redirectTo: string;
  },
): Promise<GoTrueUser> {
  const { db, config, actor, input } = opts;
  let newEmail: string | null = null;
  if (input.email !== undefined && input.email !== '') {
    newEmail = normalizeEmail(input.email);
    if (!newEmail) throw invalidEmail();
    if (newEmail === actor.email.toLowerCase()) newEmail = null;
  }
  const password = input.password;
  if ((password !== undefined || newEmail) && actor.hasVerifiedFactor && actor.aal !== 'aal2') {
    throw new GoTrueError(
      401,
      'insufficient_aal',
      'AAL2 session is required to update email or password when MFA is enabled.',
    );
  }
  if (password !== undefined) checkNewPassword(password);
  if (newEmail) {
    const taken = await findUserByEmail(db, newEmail);
    if (taken && taken.id !== actor.id) throw emailTaken(422);
  }
  const passwordHash =
    password === undefined
      ? undefined
      : await newPasswordHash({ db, config, actor, password, nonce: input.nonce });

  return db.transaction(async (tx) => {
    const user = await lockUser(tx, actor.id);
    if (!user) throw userNotFound();
    const now = new Date();
    const set: Partial<typeof users.$inferInsert> = {};
    if (passwordHash) set.passwordHash = passwordHash;
    if (input.data !== undefined) set.userMetadata = mergeMetadata(user.userMetadata, input.data);
    if (newEmail) {
      checkMailGap(user.emailChangeSentAt, now, config.authMailInterval);
      const redirectTo = opts.redirectTo;
      await mailLink(tx, config, { user, kind: 'email_change', to: newEmail, redirectTo, now });
      // The current owner hears of it at once, before anything changes.
      await enqueueAuthMail(tx, { kind: 'email_change_requested', to: user.email, newEmail });
      set.emailChange = newEmail;
      set.emailChangeSentAt = now;
    }
    if (Object.keys(set).length === 0) return toGoTrueUser(user);
    const [row] = await tx
      .update(users)
      .set({ ...set, updatedAt: now })
      .where(eq(users.id, actor.id))
      .returning();
    if (passwordHash) {
      await endOtherSessions(tx, actor.id, actor.sessionId);
      await tx
        .delete(oneTimeTokens)
        .where(
          and(
            eq(oneTimeTokens.userId, actor.id),
            inArray(oneTimeTokens.tokenType, ['confirmation', 'recovery', 'reauthentication']),
          ),
        );
    }
    return toGoTrueUser(row!);
  });
}

/**
 * GET /reauthenticate: mails a 6-digit code that PUT /user {password, nonce} then accepts once,
 * within 15 minutes. One mail per AUTH_MAIL_INTERVAL.
 */
export async function requestReauthentication(opts: Ctx & { actor: AuthUser }): Promise<void> {
  const { db, config, actor } = opts;
  await db.transaction(async (tx) => {
    const user = await lockUser(tx, actor.id);
    if (!user) throw userNotFound();
    if (!user.emailConfirmedAt) {
      throw new GoTrueError(400, 'email_not_confirmed', 'Please verify your email first.');
    }
    const now = new Date();
    checkMailGap(user.reauthenticationSentAt, now, config.authMailInterval);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await storeOneTimeToken(tx, {
      userId: user.id,
      kind: 'reauthentication',
      tokenHash: nonceHash(user.id, code),
      now,
      validSeconds: REAUTHENTICATION_VALIDITY_SECONDS,
    });
    await enqueueAuthMail(tx, {
      kind: 'reauthentication',
      to: user.email,
      code,
      validMinutes: REAUTHENTICATION_VALIDITY_SECONDS / 60,
    });
    await tx.update(users).set({ reauthenticationSentAt: now }).where(eq(users.id, user.id));
  });
}
