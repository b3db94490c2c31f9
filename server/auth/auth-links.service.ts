// The e-mail links: POST /resend and /recover mail them, GET /verify opens them.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { oneTimeTokens, users } from '../db/schema.ts';
import { notifyUser } from '../notify/notify.ts';
import {
  blockedMessage,
  type Client,
  type Ctx,
  emailTaken,
  findUserByEmail,
  LINK_MAILS,
  type LinkKind,
  lockUser,
  mailAccountOf,
  remailLink,
  sessionJson,
} from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import { enqueueAuthMail } from './auth-mails.ts';
import { createSession } from './sessions.ts';
import { hashToken } from './tokens.ts';
import type { UserRow } from './user-json.ts';

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
  const { db, config, redirectTo } = opts;
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
  const missing = 'Type provided requires an email address';
  await mailAccountOf(db, opts.email, missing, async (tx, user, now) => {
    if (type === 'signup') {
      if (user.emailConfirmedAt) return;
      await remailLink(tx, config, { user, kind: 'confirmation', to: user.email, redirectTo, now });
      return;
    }
    if (!user.emailChange) return;
    await remailLink(tx, config, {
      user,
      kind: 'email_change',
      to: user.emailChange,
      redirectTo,
      now,
    });
  });
}

/**
 * POST /recover: mails a recovery link when the address belongs to a user that may sign in.
 * Answers the same whether or not it does; the 60 s gap per user still applies.
 */
export async function requestRecovery(
  opts: Ctx & { email: string | undefined; redirectTo: string },
): Promise<void> {
  const { db, config, redirectTo } = opts;
  const missing = 'Password recovery requires an email';
  await mailAccountOf(db, opts.email, missing, async (tx, user, now) => {
    await remailLink(tx, config, { user, kind: 'recovery', to: user.email, redirectTo, now });
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

/** The link kind a /verify `type` opens. */
const linkKindOf = (type: 'signup' | 'recovery' | 'email_change'): LinkKind =>
  (Object.keys(LINK_MAILS) as LinkKind[]).find((k) => LINK_MAILS[k].type === type)!;

/**
 * Applies an opened e-mail change link to the locked user: the new address, unless someone
 * else has it meanwhile (then the error redirect). The old address is told.
 */
async function takeNewEmail(
  tx: DbOrTx,
  user: UserRow,
  redirectTo: string,
  expired: () => string,
): Promise<{ redirect: string } | { set: Partial<typeof users.$inferInsert> }> {
  const newEmail = user.emailChange;
  if (!newEmail) return { redirect: expired() };
  const taken = await findUserByEmail(tx, newEmail);
  if (taken && taken.id !== user.id) {
    const e = emailTaken(422);
    return { redirect: errorRedirect(redirectTo, e.status, e.code, e.message) };
  }
  // The old address is told, so a change the owner did not make does not go unnoticed.
  await enqueueAuthMail(tx, { kind: 'email_changed', to: user.email, newEmail });
  await notifyUser(tx, user.id, {
    kind: 'email_changed',
    title: 'Your sign-in e-mail changed',
    body: `Your account now signs in with ${newEmail} instead of ${user.email}. If you did not make this change, change your password and contact support at once.`,
    link: null,
  });
  return { set: { email: newEmail, emailChange: null, emailChangeSentAt: null } };
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
  const kind = linkKindOf(opts.type);
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
      const taken = await takeNewEmail(tx, user, redirectTo, expired);
      if ('redirect' in taken) return taken;
      emailChange = taken.set;
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
  const session = await sessionJson(config, { user: result.user, ...result.session });
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
