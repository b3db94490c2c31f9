import { and, asc, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { GoTrueSession } from '../../contract/auth.ts';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { authSessions, mfaChallenges, mfaFactors, refreshTokens, users } from '../db/schema.ts';
import { appLinks } from '../notify/links.ts';
import { notifyUser } from '../notify/notify.ts';
import { sessionJson } from './auth-common.ts';
import { GoTrueError } from './auth-errors.ts';
import { enqueueAuthMail } from './auth-mails.ts';
import type { AuthUser } from './guard.ts';
import { audit, type MfaActor, self } from './mfa-audit.ts';
import {
  claimRecoveryCode,
  hasUnusedRecoveryCode,
  isRecoveryCodeShape,
  removeRecoveryCodes,
} from './mfa-recovery.ts';
import { endOtherSessions } from './sessions.ts';
import { type Amr, hashToken, newRefreshToken } from './tokens.ts';
import { matchTotpStep, newTotpSecret, otpauthUri } from './totp.ts';
import type { FactorJson } from './user-json.ts';

/** GoTrue's MFA_MAX_ENROLLED_FACTORS default. */
export const MAX_FACTORS_PER_USER = 10;
/** A challenge can be verified within this many seconds (GoTrue's MFA_CHALLENGE_EXPIRY_DURATION). */
export const CHALLENGE_EXPIRY_SECONDS = 300;
/** Unverified factors older than this are removed at the next enrolment (GoTrue's 300 s). */
export const UNVERIFIED_FACTOR_EXPIRY_SECONDS = 300;
export const FRIENDLY_NAME_MAX = 100;

type FactorRow = typeof mfaFactors.$inferSelect;
type Ctx = { db: Db; config: Config };

export type { MfaActor } from './mfa-audit.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A factor as GoTrue lists it in `user.factors`. */
export function toFactorJson(f: FactorRow): FactorJson {
  return {
    id: f.id,
    friendly_name: f.friendlyName,
    factor_type: f.factorType,
    status: f.status,
    created_at: f.createdAt.toISOString(),
    updated_at: f.updatedAt.toISOString(),
    ...(f.lastChallengedAt ? { last_challenged_at: f.lastChallengedAt.toISOString() } : {}),
  };
}

/** The user's factors, oldest first (GET /user's `factors`). */
export async function listFactorsJson(db: DbOrTx, userId: string): Promise<FactorJson[]> {
  const rows = await db
    .select()
    .from(mfaFactors)
    .where(eq(mfaFactors.userId, userId))
    .orderBy(asc(mfaFactors.createdAt), asc(mfaFactors.id));
  return rows.map(toFactorJson);
}

/** The signed-in user's own factor, or 404 mfa_factor_not_found (GoTrue's loadFactor). */
async function ownFactor(db: DbOrTx, actor: AuthUser, factorId: string): Promise<FactorRow> {
  if (!UUID.test(factorId)) {
    throw new GoTrueError(404, 'validation_failed', 'factor_id must be an UUID');
  }
  const [factor] = await db
    .select()
    .from(mfaFactors)
    .where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, actor.id)));
  if (!factor) throw new GoTrueError(404, 'mfa_factor_not_found', 'Factor not found');
  return factor;
}

/** An optional text field of POST /factors: '' when absent, 400 when not text or too long. */
function shortText(value: unknown, field: string): string {
  const text = value ?? '';
  if (typeof text !== 'string' || text.length > FRIENDLY_NAME_MAX) {
    throw new GoTrueError(
      400,
      'validation_failed',
      `${field} must be text of at most ${FRIENDLY_NAME_MAX} characters.`,
    );
  }
  return text;
}

async function renderQrSvg(text: string): Promise<string> {
  // Loaded on first use: only enrolment draws QR codes.
  const { renderSVG } = await import('uqr');
  return renderSVG(text, { ecc: 'M', border: 2, pixelSize: 4 });
}

export type EnrollResponse = {
  id: string;
  type: 'totp';
  friendly_name: string;
  totp: { qr_code: string; secret: string; uri: string };
};

/**
 * POST /factors: a new unverified TOTP factor with its secret, otpauth URI and QR code (SVG).
 * GoTrue's checks, in its order: unique friendly name, at most 10 factors, aal2 when the user
 * already has a verified factor.
 */
export async function enrollFactor(
  opts: Ctx & {
    actor: AuthUser;
    input: { factor_type?: unknown; friendly_name?: unknown; issuer?: unknown };
  },
): Promise<EnrollResponse> {
  const { db, config, actor, input } = opts;
  const type = input.factor_type;
  if (type === 'phone') {
    throw new GoTrueError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone');
  }
  if (type === 'webauthn') {
    throw new GoTrueError(
      422,
      'mfa_webauthn_enroll_not_enabled',
      'MFA enroll is disabled for WebAuthn',
    );
  }
  if (type !== 'totp') {
    throw new GoTrueError(
      400,
      'validation_failed',
      'factor_type needs to be totp, phone, or webauthn',
    );
  }
  const name = shortText(input.friendly_name, 'friendly_name');
  const givenIssuer = shortText(input.issuer, 'issuer');
  const issuer = givenIssuer || new URL(config.publicUrl).host;
  const secret = newTotpSecret();
  const uri = otpauthUri({ issuer, account: actor.email, secret });
  const qrCode = await renderQrSvg(uri);

  const factor = await db.transaction(async (tx) => {
    // One enrolment of a user at a time: the count and name checks hold under the lock.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update');
    await tx
      .delete(mfaFactors)
      .where(
        and(
          eq(mfaFactors.userId, actor.id),
          eq(mfaFactors.status, 'unverified'),
          lt(mfaFactors.createdAt, new Date(Date.now() - UNVERIFIED_FACTOR_EXPIRY_SECONDS * 1000)),
        ),
      );
    const existing = await tx
      .select({ name: mfaFactors.friendlyName, status: mfaFactors.status })
      .from(mfaFactors)
      .where(eq(mfaFactors.userId, actor.id));
    if (existing.some((f) => f.name === name)) {
      throw new GoTrueError(
        422,
        'mfa_factor_name_conflict',
        `A factor with the friendly name "${name}" for this user already exists`,
      );
    }
    if (existing.length >= MAX_FACTORS_PER_USER) {
      throw new GoTrueError(
        422,
        'too_many_enrolled_mfa_factors',
        'Maximum number of verified factors reached, unenroll to continue',
      );
    }
    if (existing.some((f) => f.status === 'verified') && actor.aal !== 'aal2') {
      throw new GoTrueError(403, 'insufficient_aal', 'AAL2 required to enroll a new factor');
    }
    const [row] = await tx
      .insert(mfaFactors)
      .values({
        userId: actor.id,
        friendlyName: name,
        factorType: 'totp',
        status: 'unverified',
        secret,
      })
      .returning();
    await audit(tx, {
      actor: self(actor),
      action: 'mfa.enroll',
      user: actor,
      after: { factor_id: row!.id, factor_type: 'totp', friendly_name: name },
    });
    return row!;
  });
  return {
    id: factor.id,
    type: 'totp',
    friendly_name: factor.friendlyName,
    totp: { qr_code: qrCode, secret, uri },
  };
}

/** POST /factors/{id}/challenge: a challenge the next verify names, valid 5 minutes. */
export async function challengeFactor(
  opts: Ctx & { actor: AuthUser; factorId: string; ip: string },
): Promise<{ id: string; type: 'totp'; expires_at: number }> {
  const { db, actor } = opts;
  const factor = await ownFactor(db, actor, opts.factorId);
  return db.transaction(async (tx) => {
    const now = new Date();
    const [challenge] = await tx
      .insert(mfaChallenges)
      .values({ factorId: factor.id, ipAddress: opts.ip, createdAt: now })
      .returning();
    await tx.update(mfaFactors).set({ lastChallengedAt: now }).where(eq(mfaFactors.id, factor.id));
    // Old challenges of the factor are of no use any more.
    await tx
      .delete(mfaChallenges)
      .where(
        and(
          eq(mfaChallenges.factorId, factor.id),
          lt(mfaChallenges.createdAt, new Date(now.getTime() - CHALLENGE_EXPIRY_SECONDS * 1000)),
        ),
      );
    await audit(tx, {
      actor: self(actor),
      action: 'mfa.challenge',
      user: actor,
      after: { factor_id: factor.id, challenge_id: challenge!.id, factor_status: factor.status },
    });
    return {
      id: challenge!.id,
      type: 'totp',
      expires_at: Math.floor(now.getTime() / 1000) + CHALLENGE_EXPIRY_SECONDS,
    };
  });
}

/** The session's methods with `method` (re)stamped now, newest first (GoTrue's AddClaimToSession). */
function withClaim(amr: Amr[], method: string, now: number): Amr[] {
  return [{ method, timestamp: now }, ...amr.filter((a) => a.method !== method)].sort(
    (a, b) => b.timestamp - a.timestamp,
  );
}

const replayed = () =>
  new GoTrueError(
    422,
    'mfa_verification_failed',
    'This code has already been used. Wait for the next code in your authenticator app.',
  );

/** The session's login method after a recovery code (a `totp` claim would say an app was used). */
const RECOVERY_AMR = 'recovery_code';

const recoveryRefused = () =>
  new GoTrueError(
    422,
    'mfa_verification_failed',
    'This recovery code is not valid, or it has already been used.',
  );

/**
 * A recovery code stands for the app only where the app already works (a verified factor), and
 * only if it is one of the user's unused codes; a refusal is audited.
 */
async function checkRecoveryCode(
  db: Db,
  actor: AuthUser,
  factor: FactorRow,
  challengeId: string,
  code: string,
): Promise<void> {
  if (factor.status !== 'verified') {
    throw new GoTrueError(
      422,
      'mfa_verification_failed',
      'A recovery code cannot confirm a new authenticator app: enter the 6-digit code it shows.',
    );
  }
  if (await hasUnusedRecoveryCode(db, actor.id, code)) return;
  await audit(db, {
    actor: self(actor),
    action: 'mfa.verify_failed',
    user: actor,
    after: { factor_id: factor.id, challenge_id: challengeId, reason: 'invalid_recovery_code' },
  });
  throw recoveryRefused();
}

/**
 * POST /factors/{id}/verify: checks the code against the challenge (same address, unused, not
 * expired) and the factor's secret (now ±30 s), refuses a code of a step already used, then
 * raises the session to aal2 (amr gets `totp`), issues a new refresh token (the old aal1 one
 * stops working), verifies the factor on first use and ends the user's other aal1 sessions and
 * unverified factors, as GoTrue does.
 */
export async function verifyFactor(
  opts: Ctx & {
    actor: AuthUser;
    factorId: string;
    input: { challenge_id?: unknown; code?: unknown };
    ip: string;
  },
): Promise<GoTrueSession> {
  const { db, config, actor, input } = opts;
  const factor = await ownFactor(db, actor, opts.factorId);
  const code = typeof input.code === 'string' ? input.code.trim() : '';
  if (code === '') throw new GoTrueError(400, 'validation_failed', 'Code needs to be non-empty');
  const challengeId = input.challenge_id;
  if (typeof challengeId !== 'string' || !UUID.test(challengeId)) {
    throw new GoTrueError(400, 'validation_failed', 'challenge_id must be a UUID');
  }
  const [challenge] = await db
    .select()
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.id, challengeId), eq(mfaChallenges.factorId, factor.id)));
  if (!challenge) {
    throw new GoTrueError(
      422,
      'mfa_factor_not_found',
      'MFA factor with the provided challenge ID not found',
    );
  }
  if (challenge.verifiedAt) {
    throw new GoTrueError(
      422,
      'mfa_challenge_expired',
      'This challenge has already been verified. Create a new challenge.',
    );
  }
  if (challenge.ipAddress !== opts.ip) {
    throw new GoTrueError(
      422,
      'mfa_ip_address_mismatch',
      'Challenge and verify IP addresses mismatch.',
    );
  }
  if (challenge.createdAt.getTime() + CHALLENGE_EXPIRY_SECONDS * 1000 <= Date.now()) {
    await db.delete(mfaChallenges).where(eq(mfaChallenges.id, challenge.id));
    throw new GoTrueError(
      422,
      'mfa_challenge_expired',
      `MFA challenge ${challenge.id} has expired, verify against another challenge or create a new challenge.`,
    );
  }
  const recovery = !/^\d{6}$/.test(code) && isRecoveryCodeShape(code);
  if (recovery) await checkRecoveryCode(db, actor, factor, challenge.id, code);
  const step = recovery ? null : /^\d{6}$/.test(code) ? matchTotpStep(factor.secret, code) : null;
  if (!recovery && step === null) {
    await audit(db, {
      actor: self(actor),
      action: 'mfa.verify_failed',
      user: actor,
      after: { factor_id: factor.id, challenge_id: challenge.id, reason: 'invalid_code' },
    });
    throw new GoTrueError(422, 'mfa_verification_failed', 'Invalid TOTP code entered');
  }
  if (step !== null && factor.lastUsedStep !== null && step <= factor.lastUsedStep) {
    await audit(db, {
      actor: self(actor),
      action: 'mfa.verify_failed',
      user: actor,
      after: { factor_id: factor.id, challenge_id: challenge.id, reason: 'code_reused' },
    });
    throw replayed();
  }

  const result = await db.transaction(async (tx) => {
    // Claims the step (or the recovery code): of two requests with the same code, only one wins.
    let codesLeft: number | null = null;
    if (step === null) {
      const claimed = await claimRecoveryCode(tx, actor.id, code);
      if (!claimed) throw recoveryRefused();
      codesLeft = claimed.left;
    } else {
      const [claimed] = await tx
        .update(mfaFactors)
        .set({ lastUsedStep: step, status: 'verified', updatedAt: new Date() })
        .where(
          and(
            eq(mfaFactors.id, factor.id),
            or(isNull(mfaFactors.lastUsedStep), lt(mfaFactors.lastUsedStep, step)),
          ),
        )
        .returning();
      if (!claimed) throw replayed();
    }
    const [used] = await tx
      .update(mfaChallenges)
      .set({ verifiedAt: new Date() })
      .where(and(eq(mfaChallenges.id, challenge.id), isNull(mfaChallenges.verifiedAt)))
      .returning({ id: mfaChallenges.id });
    if (!used) {
      throw new GoTrueError(
        422,
        'mfa_challenge_expired',
        'This challenge has already been verified. Create a new challenge.',
      );
    }
    const [session] = await tx
      .select()
      .from(authSessions)
      .where(eq(authSessions.id, actor.sessionId))
      .for('update');
    if (!session) {
      throw new GoTrueError(
        403,
        'session_not_found',
        'Session from session_id claim in JWT does not exist',
      );
    }
    const now = Math.floor(Date.now() / 1000);
    const amr = withClaim(session.amr, step === null ? RECOVERY_AMR : 'totp', now);
    await tx
      .update(authSessions)
      .set({ aal: 'aal2', amr, factorId: factor.id, updatedAt: new Date() })
      .where(eq(authSessions.id, session.id));
    // A new refresh token: the aal1 one from the password sign-in must not mint aal2 tokens.
    await tx.delete(refreshTokens).where(eq(refreshTokens.sessionId, session.id));
    const refreshToken = newRefreshToken();
    await tx.insert(refreshTokens).values({
      tokenHash: hashToken(refreshToken),
      userId: actor.id,
      sessionId: session.id,
    });
    // GoTrue's InvalidateSessionsWithAALLessThan and DeleteUnverifiedFactors.
    await endOtherSessions(tx, actor.id, session.id, { onlyAal1: true });
    await tx
      .delete(mfaFactors)
      .where(and(eq(mfaFactors.userId, actor.id), eq(mfaFactors.status, 'unverified')));
    if (codesLeft === null) {
      await audit(tx, {
        actor: self(actor),
        action: 'mfa.verify',
        user: actor,
        after: {
          factor_id: factor.id,
          challenge_id: challenge.id,
          factor_type: 'totp',
          ...(factor.status === 'unverified' ? { factor_now_verified: true } : {}),
        },
      });
    } else {
      await audit(tx, {
        actor: self(actor),
        action: 'mfa.recovery_code_used',
        user: actor,
        after: { factor_id: factor.id, challenge_id: challenge.id, codes_left: codesLeft },
      });
      await enqueueAuthMail(tx, {
        kind: 'mfa_recovery_code_used',
        to: actor.email,
        left: codesLeft,
        ip: opts.ip,
      });
    }
    const [user] = await tx.select().from(users).where(eq(users.id, actor.id));
    return { user: user!, amr, refreshToken, factors: await listFactorsJson(tx, actor.id) };
  });
  return sessionJson(config, {
    user: result.user,
    sessionId: actor.sessionId,
    refreshToken: result.refreshToken,
    amr: result.amr,
    aal: 'aal2',
    factors: result.factors,
  });
}

/** Lowers these sessions back to aal1 (their `totp` claim goes too). */
async function downgradeSessions(tx: DbOrTx, which: SQL): Promise<void> {
  await tx
    .update(authSessions)
    .set({
      aal: 'aal1',
      factorId: null,
      amr: sql`coalesce((select jsonb_agg(e) from jsonb_array_elements(${authSessions.amr}) e where e->>'method' not in ('totp', ${RECOVERY_AMR})), '[]'::jsonb)`,
      updatedAt: new Date(),
    })
    .where(which);
}

/** DELETE /factors/{id}: a verified factor only from an aal2 session (GoTrue's rule). */
export async function unenrollFactor(
  opts: Ctx & { actor: AuthUser; factorId: string },
): Promise<{ id: string }> {
  const { db, actor } = opts;
  const factor = await ownFactor(db, actor, opts.factorId);
  if (factor.status === 'verified' && actor.aal !== 'aal2') {
    throw new GoTrueError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor');
  }
  await db.transaction(async (tx) => {
    await downgradeSessions(tx, eq(authSessions.factorId, factor.id));
    await tx.delete(mfaFactors).where(eq(mfaFactors.id, factor.id));
    // Without an app the recovery codes stand for nothing: the next app gets a new set.
    const [stillVerified] = await tx
      .select({ id: mfaFactors.id })
      .from(mfaFactors)
      .where(and(eq(mfaFactors.userId, actor.id), eq(mfaFactors.status, 'verified')))
      .limit(1);
    if (!stillVerified) await removeRecoveryCodes(tx, actor.id);
    await audit(tx, {
      actor: self(actor),
      action: 'mfa.unenroll',
      user: actor,
      after: {
        factor_id: factor.id,
        factor_status: factor.status,
        friendly_name: factor.friendlyName,
        session_id: actor.sessionId,
      },
    });
  });
  return { id: factor.id };
}

/**
 * Removes every factor of a user (lost phone): by an admin, or by the operator's
 * `npm run create-admin -- --reset-mfa EMAIL`. Their sessions drop to aal1 (they stay signed in),
 * the user is told by e-mail, and the audit log names who did it. Returns how many were removed.
 */
export async function resetUserFactors(opts: {
  db: DbOrTx;
  user: { id: string; email: string; role: string };
  actor: MfaActor;
}): Promise<{ removed: number }> {
  const { user, actor } = opts;
  return opts.db.transaction(async (tx) => {
    const removed = await tx
      .delete(mfaFactors)
      .where(eq(mfaFactors.userId, user.id))
      .returning({ id: mfaFactors.id, status: mfaFactors.status });
    await downgradeSessions(tx, eq(authSessions.userId, user.id));
    await removeRecoveryCodes(tx, user.id);
    await audit(tx, {
      actor,
      action: 'mfa.reset',
      user,
      after: { removed_factors: removed.map((f) => f.id) },
    });
    await enqueueAuthMail(tx, { kind: 'mfa_reset', to: user.email, by: actor.email });
    await notifyUser(tx, user.id, {
      kind: 'mfa_reset',
      title: 'Two-factor sign-in was reset',
      body: `${actor.email} removed the authenticator apps of your account: you sign in with your password alone until you set one up again.`,
      link: appLinks.twoFactor,
    });
    return { removed: removed.length };
  });
}
