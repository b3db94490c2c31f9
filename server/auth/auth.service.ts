import { randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import { normalizeEmail } from '../../contract/email.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { isUniqueViolation } from '../db/pg-errors.ts';
import { authSessions, oneTimeTokens, users } from '../db/schema.ts';
import { getSettings } from '../db/settings.ts';
import { appLinks } from '../notify/links.ts';
import { notifyAdmins, notifyUser } from '../notify/notify.ts';
import { GoTrueError } from './auth-errors.ts';
import { enqueueAuthMail, verifyLink } from './auth-mails.ts';
import type { AuthUser } from './guard.ts';
import {
  checkPasswordEvenly,
  claimSignInAttempt,
  signInPassed,
  warnOwnerOfFailures,
} from './login-throttle.ts';
import { listFactorsJson } from './mfa.service.ts';
import {
  hashPassword,
  PASSWORD_MAX_BYTES,
  passwordProblem,
  verifyPassword,
  WEAK_PASSWORD_MESSAGE,
} from './password.ts';
import {
  createSession,
  endAllSessions,
  endOtherSessions,
  endSession,
  rotateRefreshToken,
} from './sessions.ts';
import { hashToken, jwtSigner, newLinkToken } from './tokens.ts';
import { madeUpUser, toGoTrueUser, toSessionJson, type UserRow } from './user-json.ts';

/** At most one auth mail of a kind per user in this many seconds (AUTH_MAIL_INTERVAL's default). */
export const MAIL_INTERVAL_SECONDS = 60;
/** The reauthentication code of GET /reauthenticate is valid this long. */
export const REAUTHENTICATION_VALIDITY_SECONDS = 15 * 60;
/** user_metadata may hold at most this many bytes of JSON (PUT /user {data}). */
export const USER_METADATA_MAX_BYTES = 16 * 1024;
/** E-mail links work for 24 hours. */
export const LINK_VALIDITY_SECONDS = 24 * 60 * 60;
/** A just-revoked refresh token may be swapped again within this window (contract §7). */
export const REFRESH_REUSE_INTERVAL_SECONDS = 10;

type Ctx = { db: Db; config: Config };
type Client = { ip?: string; userAgent?: string };

const invalidEmail = () =>
  new GoTrueError(400, 'validation_failed', 'Unable to validate email address: invalid format');
const invalidCredentials = () =>
  new GoTrueError(400, 'invalid_credentials', 'Invalid login credentials');
const tooLong = () =>
  new GoTrueError(
    400,
    'validation_failed',
    `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`,
  );
const weakPassword = () =>
  new GoTrueError(422, 'weak_password', WEAK_PASSWORD_MESSAGE, { weakPasswordReasons: ['length'] });

/** The message a blocked user sees, naming the support address from settings. */
export async function blockedMessage(db: DbOrTx): Promise<string> {
  const s = await getSettings(db);
  return `Your account has been blocked. Please contact ${s.supportEmail} for help.`;
}

/** A redirect target only when it is on our own origin (PUBLIC_URL); relative paths resolve there. */
export function allowedRedirect(publicUrl: string, candidate: string | undefined): string | null {
  if (!candidate) return null;
  try {
    const base = new URL(publicUrl);
    const url = new URL(candidate, base);
    return url.origin === base.origin ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The first allow-listed candidate, else PUBLIC_URL (GoTrue falls back to SITE_URL silently). */
export function redirectTarget(publicUrl: string, ...candidates: (string | undefined)[]): string {
  for (const c of candidates) {
    const ok = allowedRedirect(publicUrl, c);
    if (ok) return ok;
  }
  return new URL(publicUrl).toString();
}

async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  return row;
}

async function lockUser(tx: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/** 429 when the previous mail of this kind went out less than AUTH_MAIL_INTERVAL seconds ago. */
function checkMailGap(
  sentAt: Date | null,
  now: Date,
  intervalSeconds: number = MAIL_INTERVAL_SECONDS,
): void {
  if (!sentAt) return;
  const waitMs = sentAt.getTime() + intervalSeconds * 1000 - now.getTime();
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new GoTrueError(
      429,
      'over_email_send_rate_limit',
      `For security purposes, you can only request this after ${seconds} seconds.`,
      { headers: { 'retry-after': String(seconds) } },
    );
  }
}

/** Stores a fresh one-time link token (hashed; one per user and kind) and returns it. */
async function issueLinkToken(
  tx: DbOrTx,
  input: {
    userId: string;
    kind: 'confirmation' | 'recovery' | 'email_change' | 'reauthentication';
    now: Date;
    token?: string;
    validSeconds?: number;
  },
): Promise<string> {
  const token = input.token ?? newLinkToken();
  const validMs = (input.validSeconds ?? LINK_VALIDITY_SECONDS) * 1000;
  const expiresAt = new Date(input.now.getTime() + validMs);
  await tx
    .insert(oneTimeTokens)
    .values({
      userId: input.userId,
      tokenType: input.kind,
      tokenHash: hashToken(token),
      createdAt: input.now,
      expiresAt,
    })
    .onConflictDoUpdate({
      target: [oneTimeTokens.userId, oneTimeTokens.tokenType],
      set: { tokenHash: hashToken(token), createdAt: input.now, expiresAt },
    });
  return token;
}

const PROFILE_FIELDS = [
  'full_legal_name',
  'full_name',
  'business_legal_name',
  'company_name',
  'address',
  'phone_number',
  'whatsapp_number',
  'ms_teams_id',
] as const;

/** Checks the sign-up `data`: role buyer or absent, profile fields short strings. */
function checkSignupData(data: Record<string, unknown>): {
  role: 'publisher' | 'buyer';
  profile: Partial<typeof users.$inferInsert>;
} {
  const role = data.role;
  if (role !== undefined && role !== null && role !== 'buyer') {
    throw new GoTrueError(
      400,
      'validation_failed',
      "Accounts can only be created for publishers or buyers: leave data.role out or set it to 'buyer'.",
    );
  }
  if (JSON.stringify(data).length > 16_000) {
    throw new GoTrueError(400, 'validation_failed', 'The sign-up data is too large.');
  }
  const text: Partial<Record<(typeof PROFILE_FIELDS)[number], string | null>> = {};
  for (const field of PROFILE_FIELDS) {
    const v = data[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') {
      throw new GoTrueError(400, 'validation_failed', `data.${field} must be text.`);
    }
    if (v.length > 500) {
      throw new GoTrueError(
        400,
        'validation_failed',
        `data.${field} is too long (at most 500 characters).`,
      );
    }
    text[field] = v.trim() || null;
  }
  if (role === 'buyer') {
    return {
      role: 'buyer',
      profile: { name: text.full_name ?? null, businessLegalName: text.company_name ?? null },
    };
  }
  return {
    role: 'publisher',
    profile: {
      name: text.full_legal_name ?? null,
      businessLegalName: text.business_legal_name ?? null,
      address: text.address ?? null,
      phoneNumber: text.phone_number ?? null,
      whatsappNumber: text.whatsapp_number ?? null,
      msTeamsId: text.ms_teams_id ?? null,
    },
  };
}

export type SignUpResult = { session: GoTrueSession } | { user: GoTrueUser };

/**
 * POST /signup. Publishers are confirmed at once (status pending until an admin approves);
 * buyers get a confirmation mail. AUTH_AUTOCONFIRM confirms everyone and answers a Session.
 * A repeated sign-up never reveals whether the address is registered (contract §3).
 */
export async function signUp(
  opts: Ctx &
    Client & {
      input: { email?: string; password?: string; data?: Record<string, unknown> };
      redirectTo: string;
    },
): Promise<SignUpResult> {
  const { db, config, input } = opts;
  const password = input.password ?? '';
  if (password === '') {
    throw new GoTrueError(400, 'validation_failed', 'Signup requires a valid password');
  }
  const problem = passwordProblem(password);
  if (problem === 'too_long') throw tooLong();
  if (problem === 'length') throw weakPassword();
  if (!input.email) {
    throw new GoTrueError(400, 'validation_failed', 'To signup, please provide your email');
  }
  const email = normalizeEmail(input.email);
  if (!email) throw invalidEmail();
  const data = input.data ?? {};
  const { role, profile } = checkSignupData(data);

  const existing = await findUserByEmail(db, email);
  if (existing) return repeatedSignUp({ ...opts, existing, email, data, role });

  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx): Promise<SignUpResult> => {
      const now = new Date();
      const confirmNow = config.authAutoconfirm || role === 'publisher';
      const [row] = await tx
        .insert(users)
        .values({
          ...profile,
          email,
          passwordHash,
          role,
          status: role === 'publisher' ? 'pending' : 'active',
          userMetadata: confirmNow ? { ...data, email_verified: true } : { ...data },
          emailConfirmedAt: confirmNow ? now : null,
          confirmationSentAt: confirmNow ? null : now,
          lastSignInAt: config.authAutoconfirm ? now : null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const user = row!;
      if (role === 'publisher') await announceSignUp(tx, config, user);
      if (config.authAutoconfirm) {
        const s = await createSession(tx, {
          userId: user.id,
          method: 'password',
          ip: opts.ip,
          userAgent: opts.userAgent,
        });
        return {
          session: await toSessionJson({
            secret: await jwtSigner(config),
            expiresIn: config.jwtExpiry,
            user,
            ...s,
          }),
        };
      }
      if (!confirmNow) await sendConfirmation(tx, config, user, opts.redirectTo, now);
      return { user: toGoTrueUser(user) };
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // Someone signed up with this address at the same moment: answer as for a repeat.
    const raced = await findUserByEmail(db, email);
    if (!raced) throw err;
    return repeatedSignUp({ ...opts, existing: raced, email, data, role });
  }
}

/** Tells the admins a publisher signed up and waits for approval (issue 16). */
async function announceSignUp(tx: DbOrTx, config: Config, user: UserRow): Promise<void> {
  const who = user.name?.trim() || user.email;
  const company = user.businessLegalName?.trim();
  await notifyAdmins(tx, {
    kind: 'publisher_signed_up',
    title: `New publisher sign-up: ${who}`,
    body: `${who} (${user.email}${company ? `, ${company}` : ''}) signed up as a publisher and waits for approval.`,
    link: appLinks.adminPublisher(user.id),
    publicUrl: config.publicUrl,
  });
}

async function sendConfirmation(
  tx: DbOrTx,
  config: Config,
  user: UserRow,
  redirectTo: string,
  now: Date,
): Promise<void> {
  const token = await issueLinkToken(tx, { userId: user.id, kind: 'confirmation', now });
  await enqueueAuthMail(tx, {
    kind: 'confirmation',
    to: user.email,
    link: verifyLink({ publicUrl: config.publicUrl, token, type: 'signup', redirectTo }),
  });
}

async function repeatedSignUp(
  opts: Ctx & {
    existing: UserRow;
    email: string;
    data: Record<string, unknown>;
    role: 'publisher' | 'buyer';
    redirectTo: string;
  },
): Promise<SignUpResult> {
  const { db, config, existing } = opts;
  if (config.authAutoconfirm) {
    throw new GoTrueError(422, 'user_already_exists', 'User already registered');
  }
  if (existing.emailConfirmedAt) {
    return {
      user: madeUpUser({
        email: opts.email,
        data: opts.data,
        confirmedAtSignup: opts.role === 'publisher',
      }),
    };
  }
  // Not confirmed yet: send the confirmation again; the password and data stay as they were.
  return db.transaction(async (tx) => {
    const user = (await lockUser(tx, existing.id)) ?? existing;
    if (user.status === 'blocked') return { user: toGoTrueUser(user) };
    const now = new Date();
    checkMailGap(user.confirmationSentAt, now, config.authMailInterval);
    await sendConfirmation(tx, config, user, opts.redirectTo, now);
    const [updated] = await tx
      .update(users)
      .set({ confirmationSentAt: now })
      .where(eq(users.id, user.id))
      .returning();
    return { user: toGoTrueUser(updated!) };
  });
}

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
    return toSessionJson({
      secret: await jwtSigner(config),
      expiresIn: config.jwtExpiry,
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
  return toSessionJson({
    secret: await jwtSigner(config),
    expiresIn: config.jwtExpiry,
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
  if (!row)
    throw new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
  return toGoTrueUser(row, await listFactorsJson(opts.db, row.id));
}

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
  const given = Buffer.from(hashToken(`${userId}:${nonce.trim()}`));
  const stored = Buffer.from(pending.tokenHash);
  if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw invalidNonce();
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
  if (password !== undefined) {
    const problem = passwordProblem(password);
    if (problem === 'too_long') throw tooLong();
    if (problem === 'length') throw weakPassword();
  }
  if (newEmail) {
    const taken = await findUserByEmail(db, newEmail);
    if (taken && taken.id !== actor.id) {
      throw new GoTrueError(
        422,
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
  }
  let passwordHash: string | undefined;
  let needsNonce = false;
  if (password !== undefined) {
    const [session] = await db
      .select({ createdAt: authSessions.createdAt, amr: authSessions.amr })
      .from(authSessions)
      .where(eq(authSessions.id, actor.sessionId));
    const ageSeconds = session ? (Date.now() - session.createdAt.getTime()) / 1000 : Infinity;
    needsNonce =
      !session || (!isRecoverySession(session.amr) && ageSeconds >= config.authReauthenticateAfter);
    if (needsNonce && !input.nonce) {
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
    passwordHash = await hashPassword(password);
    // Outside the update's transaction, so a wrong guess stays spent even though it fails.
    if (needsNonce) await consumeNonce(db, actor.id, input.nonce ?? '');
  }

  return db.transaction(async (tx) => {
    const user = await lockUser(tx, actor.id);
    if (!user) {
      throw new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    }
    const now = new Date();
    const set: Partial<typeof users.$inferInsert> = {};
    if (passwordHash) set.passwordHash = passwordHash;
    if (input.data !== undefined) set.userMetadata = mergeMetadata(user.userMetadata, input.data);
    if (newEmail) {
      checkMailGap(user.emailChangeSentAt, now, config.authMailInterval);
      const token = await issueLinkToken(tx, { userId: user.id, kind: 'email_change', now });
      await enqueueAuthMail(tx, {
        kind: 'email_change',
        to: newEmail,
        link: verifyLink({
          publicUrl: config.publicUrl,
          token,
          type: 'email_change',
          redirectTo: opts.redirectTo,
        }),
      });
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
    if (!user) {
      throw new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    }
    if (!user.emailConfirmedAt) {
      throw new GoTrueError(400, 'email_not_confirmed', 'Please verify your email first.');
    }
    const now = new Date();
    checkMailGap(user.reauthenticationSentAt, now, config.authMailInterval);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await tx
      .insert(oneTimeTokens)
      .values({
        userId: user.id,
        tokenType: 'reauthentication',
        tokenHash: hashToken(`${user.id}:${code}`),
        createdAt: now,
        expiresAt: new Date(now.getTime() + REAUTHENTICATION_VALIDITY_SECONDS * 1000),
      })
      .onConflictDoUpdate({
        target: [oneTimeTokens.userId, oneTimeTokens.tokenType],
        set: {
          tokenHash: hashToken(`${user.id}:${code}`),
          createdAt: now,
          expiresAt: new Date(now.getTime() + REAUTHENTICATION_VALIDITY_SECONDS * 1000),
        },
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

/**
 * POST /resend: mails the sign-up confirmation (type signup) or the pending e-mail change link
 * (type email_change) again. Answers {} whether or not the address has an account; the per-user
 * mail gap still applies.
 */
export async function resend(
  opts: Ctx & {
    type: string | undefined;
    email: string | undefined;
    phone?: string;
    redirectTo: string;
  },
): Promise<void> {
  const { db, config } = opts;
  const type = opts.type ?? '';
  if (!['signup', 'email_change', 'sms', 'phone_change'].includes(type)) {
    throw new GoTrueError(
      400,
      'validation_failed',
      'Missing one of these types: signup, email_change, sms, phone_change',
    );
  }
  if (type === 'sms' || type === 'phone_change' || opts.phone) {
    throw new GoTrueError(400, 'phone_provider_disabled', 'Phone logins are disabled');
  }
  if (!opts.email) {
    throw new GoTrueError(400, 'validation_failed', 'Type provided requires an email address');
  }
  const email = normalizeEmail(opts.email);
  if (!email) throw invalidEmail();
  const found = await findUserByEmail(db, email);
  if (!found) return;
  await db.transaction(async (tx) => {
    const user = await lockUser(tx, found.id);
    if (!user || user.status === 'blocked') return;
    const now = new Date();
    if (type === 'signup') {
      if (user.emailConfirmedAt) return;
      checkMailGap(user.confirmationSentAt, now, config.authMailInterval);
      await sendConfirmation(tx, config, user, opts.redirectTo, now);
      await tx.update(users).set({ confirmationSentAt: now }).where(eq(users.id, user.id));
      return;
    }
    if (!user.emailChange) return;
    checkMailGap(user.emailChangeSentAt, now, config.authMailInterval);
    const token = await issueLinkToken(tx, { userId: user.id, kind: 'email_change', now });
    await enqueueAuthMail(tx, {
      kind: 'email_change',
      to: user.emailChange,
      link: verifyLink({
        publicUrl: config.publicUrl,
        token,
        type: 'email_change',
        redirectTo: opts.redirectTo,
      }),
    });
    await tx.update(users).set({ emailChangeSentAt: now }).where(eq(users.id, user.id));
  });
}

export type LogoutScope = 'global' | 'local' | 'others';

/** POST /logout: global ends every session, local this one, others all but this one. */
export async function signOut(opts: {
  db: DbOrTx;
  actor: AuthUser;
  scope: LogoutScope;
}): Promise<void> {
  const { db, actor, scope } = opts;
  if (scope === 'global') await endAllSessions(db, actor.id);
  else if (scope === 'local') await endSession(db, actor.sessionId);
  else await endOtherSessions(db, actor.id, actor.sessionId);
}

/**
 * POST /recover: mails a recovery link when the address belongs to a user that may sign in.
 * Answers the same whether or not it does; the 60 s gap per user still applies.
 */
export async function requestRecovery(
  opts: Ctx & { email: string | undefined; redirectTo: string },
): Promise<void> {
  const { db, config } = opts;
  if (!opts.email) {
    throw new GoTrueError(400, 'validation_failed', 'Password recovery requires an email');
  }
  const email = normalizeEmail(opts.email);
  if (!email) throw invalidEmail();
  const found = await findUserByEmail(db, email);
  if (!found) return;
  await db.transaction(async (tx) => {
    const user = await lockUser(tx, found.id);
    if (!user || user.status === 'blocked') return;
    const now = new Date();
    checkMailGap(user.recoverySentAt, now, config.authMailInterval);
    const token = await issueLinkToken(tx, { userId: user.id, kind: 'recovery', now });
    await enqueueAuthMail(tx, {
      kind: 'recovery',
      to: user.email,
      link: verifyLink({
        publicUrl: config.publicUrl,
        token,
        type: 'recovery',
        redirectTo: opts.redirectTo,
      }),
    });
    await tx.update(users).set({ recoverySentAt: now }).where(eq(users.id, user.id));
  });
}

function fragment(params: Record<string, string>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((k) => [k, params[k]!] as [string, string]);
  return new URLSearchParams(sorted).toString();
}

function withFragment(target: string, params: Record<string, string>): string {
  const url = new URL(target);
  url.hash = '';
  return `${url.toString()}#${fragment(params)}`;
}

/** The error redirect of /verify: `#error=…&error_code=…&error_description=…&sb=`. */
export function errorRedirect(target: string, status: number, code: string, message: string) {
  const error =
    status === 401
      ? 'unauthorized_client'
      : status === 403
        ? 'access_denied'
        : status >= 500
          ? 'server_error'
          : 'invalid_request';
  return withFragment(target, { error, error_code: code, error_description: message, sb: '' });
}

/**
 * GET /verify: consumes a sign-up or recovery link (once, within 24 h), confirms the e-mail,
 * starts a session and answers the 303 target with the tokens in the sorted fragment.
 */
export async function verifyEmailLink(
  opts: Ctx &
    Client & { token: string; type: 'signup' | 'recovery' | 'email_change'; redirectTo: string },
): Promise<string> {
  const { db, config, redirectTo } = opts;
  const kind =
    opts.type === 'signup'
      ? 'confirmation'
      : opts.type === 'recovery'
        ? 'recovery'
        : 'email_change';
  const expired = () =>
    errorRedirect(redirectTo, 403, 'otp_expired', 'Email link is invalid or has expired');
  type Outcome =
    | { redirect: string }
    | { user: UserRow; session: Awaited<ReturnType<typeof createSession>> };
  const result = await db.transaction(async (tx): Promise<Outcome> => {
    // Deleting first makes the link single-use even when it is opened twice at once.
    const [link] = await tx
      .delete(oneTimeTokens)
      .where(
        and(eq(oneTimeTokens.tokenHash, hashToken(opts.token)), eq(oneTimeTokens.tokenType, kind)),
      )
      .returning();
    if (!link || link.expiresAt.getTime() <= Date.now()) return { redirect: expired() };
    const user = await lockUser(tx, link.userId);
    if (!user) return { redirect: expired() };
    if (user.status === 'blocked') {
      return {
        redirect: errorRedirect(redirectTo, 403, 'user_banned', await blockedMessage(tx)),
      };
    }
    const now = new Date();
    let emailChange: Partial<typeof users.$inferInsert> = {};
    if (kind === 'email_change') {
      const newEmail = user.emailChange;
      if (!newEmail) return { redirect: expired() };
      const taken = await findUserByEmail(tx, newEmail);
      if (taken && taken.id !== user.id) {
        return {
          redirect: errorRedirect(
            redirectTo,
            422,
            'email_exists',
            'A user with this email address has already been registered',
          ),
        };
      }
      emailChange = {
        email: newEmail,
        emailChange: null,
        emailChangeSentAt: null,
      };
      // The old address is told, so a change the owner did not make does not go unnoticed.
      await enqueueAuthMail(tx, { kind: 'email_changed', to: user.email, newEmail });
      await notifyUser(tx, user.id, {
        kind: 'email_changed',
        title: 'Your sign-in e-mail changed',
        body: `Your account now signs in with ${newEmail} instead of ${user.email}. If you did not make this change, change your password and contact support at once.`,
        link: null,
      });
    }
    const confirm = !user.emailConfirmedAt;
    const [updated] = await tx
      .update(users)
      .set({
        lastSignInAt: now,
        updatedAt: now,
        ...emailChange,
        ...(confirm
          ? {
              emailConfirmedAt: now,
              userMetadata: { ...(user.userMetadata ?? {}), email_verified: true },
            }
          : {}),
      })
      .where(eq(users.id, user.id))
      .returning();
    const s = await createSession(tx, {
      userId: user.id,
      method: kind === 'recovery' ? 'recovery' : 'otp',
      ip: opts.ip,
      userAgent: opts.userAgent,
    });
    return { user: updated!, session: s };
  });
  if ('redirect' in result) return result.redirect;
  const session = await toSessionJson({
    secret: await jwtSigner(config),
    expiresIn: config.jwtExpiry,
    user: result.user,
    ...result.session,
  });
  return withFragment(redirectTo, {
    access_token: session.access_token,
    expires_at: String(session.expires_at),
    expires_in: String(session.expires_in),
    refresh_token: session.refresh_token,
    sb: '',
    token_type: 'bearer',
    type: opts.type,
  });
}
