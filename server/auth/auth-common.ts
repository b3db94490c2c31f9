// What the /auth/v1 services share: their limits, errors, user look-ups, link tokens and mails.
import { eq, sql } from 'drizzle-orm';
import type { GoTrueSession } from '../../contract/auth.ts';
import { normalizeEmail } from '../../contract/email.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { oneTimeTokens, users } from '../db/schema.ts';
import { getSettings } from '../db/settings.ts';
import { GoTrueError } from './auth-errors.ts';
import { enqueueAuthMail, verifyLink } from './auth-mails.ts';
import { PASSWORD_MAX_BYTES, passwordProblem, WEAK_PASSWORD_MESSAGE } from './password.ts';
import { hashToken, jwtSigner, newLinkToken } from './tokens.ts';
import { toSessionJson, type UserRow } from './user-json.ts';

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

export type Ctx = { db: Db; config: Config };
export type Client = { ip?: string; userAgent?: string };

export const invalidEmail = () =>
  new GoTrueError(400, 'validation_failed', 'Unable to validate email address: invalid format');
export const invalidCredentials = () =>
  new GoTrueError(400, 'invalid_credentials', 'Invalid login credentials');
export const userNotFound = () =>
  new GoTrueError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
export const emailTaken = (status: number) =>
  new GoTrueError(
    status,
    'email_exists',
    'A user with this email address has already been registered',
  );

/** Throws GoTrue's error for a new password that is too long or too short. */
export function checkNewPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem === 'too_long') {
    throw new GoTrueError(
      400,
      'validation_failed',
      `Password cannot be longer than ${PASSWORD_MAX_BYTES} characters`,
    );
  }
  if (problem === 'length') {
    throw new GoTrueError(422, 'weak_password', WEAK_PASSWORD_MESSAGE, {
      weakPasswordReasons: ['length'],
    });
  }
}

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

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`);
  return row;
}

export async function lockUser(tx: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row;
}

/**
 * The account of an address given to a mailing endpoint (POST /resend, /recover), locked, for
 * `send`; nothing happens for an unknown or blocked one, so the answer never tells which.
 */
export async function mailAccountOf(
  db: Db,
  given: string | undefined,
  missingMessage: string,
  send: (tx: DbOrTx, user: UserRow, now: Date) => Promise<void>,
): Promise<void> {
  if (!given) throw new GoTrueError(400, 'validation_failed', missingMessage);
  const email = normalizeEmail(given);
  if (!email) throw invalidEmail();
  const found = await findUserByEmail(db, email);
  if (!found) return;
  await db.transaction(async (tx) => {
    const user = await lockUser(tx, found.id);
    if (!user || user.status === 'blocked') return;
    await send(tx, user, new Date());
  });
}

/** 429 when the previous mail of this kind went out less than AUTH_MAIL_INTERVAL seconds ago. */
export function checkMailGap(
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

/** Stores a one-time token (hashed; one per user and kind, a new one replaces the old). */
export async function storeOneTimeToken(
  tx: DbOrTx,
  input: {
    userId: string;
    kind: 'confirmation' | 'recovery' | 'email_change' | 'reauthentication';
    tokenHash: string;
    now: Date;
    validSeconds: number;
  },
): Promise<void> {
  const { tokenHash, now } = input;
  const expiresAt = new Date(now.getTime() + input.validSeconds * 1000);
  await tx
    .insert(oneTimeTokens)
    .values({ userId: input.userId, tokenType: input.kind, tokenHash, createdAt: now, expiresAt })
    .onConflictDoUpdate({
      target: [oneTimeTokens.userId, oneTimeTokens.tokenType],
      set: { tokenHash, createdAt: now, expiresAt },
    });
}

/** The e-mail links: their `type` on /verify and the user column that says when one was sent. */
export const LINK_MAILS = {
  confirmation: { type: 'signup', sentAt: 'confirmationSentAt' },
  recovery: { type: 'recovery', sentAt: 'recoverySentAt' },
  email_change: { type: 'email_change', sentAt: 'emailChangeSentAt' },
} as const;
export type LinkKind = keyof typeof LINK_MAILS;

/** Stores a fresh link token of this kind (valid 24 h) and queues the mail that carries it. */
export async function mailLink(
  tx: DbOrTx,
  config: Config,
  input: { user: UserRow; kind: LinkKind; to: string; redirectTo: string; now: Date },
): Promise<void> {
  const token = newLinkToken();
  await storeOneTimeToken(tx, {
    userId: input.user.id,
    kind: input.kind,
    tokenHash: hashToken(token),
    now: input.now,
    validSeconds: LINK_VALIDITY_SECONDS,
  });
  const type = LINK_MAILS[input.kind].type;
  await enqueueAuthMail(tx, {
    kind: input.kind,
    to: input.to,
    link: verifyLink({ publicUrl: config.publicUrl, token, type, redirectTo: input.redirectTo }),
  });
}

/**
 * Mails a link again (a repeated sign-up, POST /resend, /recover): once per AUTH_MAIL_INTERVAL
 * and kind, noting when it went out. Answers the user row as updated.
 */
export async function remailLink(
  tx: DbOrTx,
  config: Config,
  input: { user: UserRow; kind: LinkKind; to: string; redirectTo: string; now: Date },
): Promise<UserRow> {
  const { user, now } = input;
  const sentAt = LINK_MAILS[input.kind].sentAt;
  checkMailGap(user[sentAt], now, config.authMailInterval);
  await mailLink(tx, config, input);
  const set: Partial<typeof users.$inferInsert> = {};
  set[sentAt] = now;
  const [updated] = await tx.update(users).set(set).where(eq(users.id, user.id)).returning();
  return updated!;
}

/** A Session for a session just started or refreshed, signed with the configured key. */
export async function sessionJson(
  config: Config,
  input: Omit<Parameters<typeof toSessionJson>[0], 'secret' | 'expiresIn'>,
): Promise<GoTrueSession> {
  return toSessionJson({ secret: await jwtSigner(config), expiresIn: config.jwtExpiry, ...input });
}
