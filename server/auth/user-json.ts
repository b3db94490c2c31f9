import { createHash, randomUUID } from 'node:crypto';
import type { GoTrueSession, GoTrueUser } from '../../contract/auth.ts';
import type { users } from '../db/schema.ts';
import { type Aal, type Amr, AUDIENCE, type JwtSigner, signAccessToken } from './tokens.ts';

export type UserRow = typeof users.$inferSelect;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);

/** A stable identity id per user (we keep one e-mail identity, so no table for it). */
function identityId(userId: string): string {
  const h = createHash('sha256').update(`identity:${userId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const APP_METADATA = { provider: 'email', providers: ['email'] };

/** GoTrue's Factor JSON (`user.factors[]`, what auth-js's listFactors reads). */
export type FactorJson = {
  id: string;
  friendly_name: string;
  factor_type: 'totp';
  status: 'unverified' | 'verified';
  created_at: string;
  updated_at: string;
  last_challenged_at?: string;
};

/**
 * GoTrue's User JSON for a row (contract §2): "" never null, empty timestamps left out;
 * `factors` only when the user has any (GoTrue omits an empty list).
 */
export function toGoTrueUser(row: UserRow, factors: FactorJson[] = []): GoTrueUser {
  const confirmed = Boolean(row.emailConfirmedAt);
  const metadata = row.userMetadata ?? {};
  const created = row.createdAt.toISOString();
  const updated = row.updatedAt.toISOString();
  return {
    id: row.id,
    aud: AUDIENCE,
    role: 'authenticated',
    email: row.email ?? '',
    phone: '',
    email_confirmed_at: iso(row.emailConfirmedAt),
    confirmed_at: iso(row.emailConfirmedAt),
    confirmation_sent_at: iso(row.confirmationSentAt),
    recovery_sent_at: iso(row.recoverySentAt),
    ...(row.emailChange
      ? { new_email: row.emailChange, email_change_sent_at: iso(row.emailChangeSentAt) }
      : {}),
    last_sign_in_at: iso(row.lastSignInAt),
    app_metadata: APP_METADATA,
    user_metadata: metadata,
    identities: [
      {
        identity_id: identityId(row.id),
        id: row.id,
        user_id: row.id,
        provider: 'email',
        email: row.email,
        identity_data: {
          ...metadata,
          sub: row.id,
          email: row.email,
          email_verified: confirmed,
          phone_verified: false,
        },
        last_sign_in_at: iso(row.lastSignInAt),
        created_at: created,
        updated_at: updated,
      },
    ],
    created_at: created,
    updated_at: updated,
    is_anonymous: false,
    ...(factors.length > 0 ? { factors } : {}),
  };
}

/**
 * What a repeated sign-up of a confirmed address answers (no account enumeration): a made-up
 * user shaped like a fresh sign-up, with a random id, `role: ""` and no identities, as GoTrue does.
 */
export function madeUpUser(input: {
  email: string;
  data: Record<string, unknown>;
  confirmedAtSignup: boolean;
}): GoTrueUser {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    aud: AUDIENCE,
    role: '',
    email: input.email,
    phone: '',
    ...(input.confirmedAtSignup
      ? { email_confirmed_at: now, confirmed_at: now }
      : { confirmation_sent_at: now }),
    app_metadata: APP_METADATA,
    user_metadata: input.confirmedAtSignup ? { ...input.data, email_verified: true } : input.data,
    identities: [],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}

/** A Session (GoTrue's AccessTokenResponse) with a fresh access token for the session. */
export async function toSessionJson(input: {
  secret: string | JwtSigner;
  expiresIn: number;
  user: UserRow;
  sessionId: string;
  refreshToken: string;
  amr: Amr[];
  aal?: Aal;
  factors?: FactorJson[];
  weakPassword?: { message: string; reasons: string[] };
}): Promise<GoTrueSession> {
  const { token, exp } = await signAccessToken(input.secret, {
    userId: input.user.id,
    email: input.user.email,
    sessionId: input.sessionId,
    amr: [...input.amr].sort((a, b) => b.timestamp - a.timestamp),
    userMetadata: input.user.userMetadata ?? {},
    expiresIn: input.expiresIn,
    aal: input.aal,
  });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: input.expiresIn,
    expires_at: exp,
    refresh_token: input.refreshToken,
    user: toGoTrueUser(input.user, input.factors),
    ...(input.weakPassword ? { weak_password: input.weakPassword } : {}),
  };
}
