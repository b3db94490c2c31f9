import { createHash } from 'node:crypto';
import { eq, lt } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { DbOrTx } from '../db/client.ts';
import { loginThrottle } from '../db/schema.ts';
import { renderMail } from '../mail/layout.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { getMailBrand } from '../mail/templates.ts';
import { GoTrueError } from './auth-errors.ts';
import { verifyAgainstDummy, verifyPassword } from './password.ts';

/**
 * The per-account sign-in throttle (issue 11). The per-IP buckets of rate-limit.ts do not stop
 * a guesser who spreads over many addresses, so failures are also counted per e-mail address:
 * the first few are free (typos), then each attempt must wait a little longer after the
 * previous one (1 s, 2 s, 4 s … at most 15 minutes). It is a delay, never a lockout: the owner
 * can always reset the password by e-mail (recovery is not throttled here) and a right
 * password resets the count. Counts live in the database, so every instance shares them.
 */
export const LOGIN_THROTTLE = {
  /** Failures in a row that cost nothing. */
  freeFailures: 5,
  /** The longest wait between two attempts. */
  maxWaitSeconds: 15 * 60,
  /** A count this old is forgotten. */
  forgetAfterSeconds: 24 * 60 * 60,
  /** The owner gets a warning mail at this many failures in a row … */
  alertAfterFailures: 5,
  /** … at most once in this window. */
  alertWindowSeconds: 24 * 60 * 60,
} as const;

/** Seconds the next attempt must wait after `failures` failures in a row. */
export function waitAfter(failures: number): number {
  const over = failures - LOGIN_THROTTLE.freeFailures;
  if (over < 0) return 0;
  return Math.min(LOGIN_THROTTLE.maxWaitSeconds, 2 ** over);
}

// Unknown addresses get a row too (so a 429 does not tell that an account exists); rows are
// keyed by a hash, so the table never holds the addresses people typed.
const keyFor = (email: string) => createHash('sha256').update(email).digest('base64url');

export type SignInAttempt = { key: string; failures: number; alertedAt: Date | null };

/**
 * Claims one sign-in attempt for an address, before the password is checked: 429
 * `over_request_rate_limit` with Retry-After while the address must wait; otherwise the
 * attempt is counted as a failure at once (so a hundred parallel guesses count a hundred) and
 * `passed` takes it back when the password was right. Returns null when there is no address.
 */
export async function claimSignInAttempt(
  db: DbOrTx,
  email: string,
  now: Date = new Date(),
): Promise<SignInAttempt | null> {
  if (email === '') return null;
  const key = keyFor(email);
  const forgetBefore = new Date(now.getTime() - LOGIN_THROTTLE.forgetAfterSeconds * 1000);
  if (Math.random() < 0.02) {
    await db.delete(loginThrottle).where(lt(loginThrottle.lastFailureAt, forgetBefore));
  }
  await db
    .insert(loginThrottle)
    .values({ key, failures: 0, lastFailureAt: now, nextAttemptAt: now })
    .onConflictDoNothing();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.key, key))
      .for('update');
    // Gone only when a right password cleared it this very moment: nothing to wait for.
    if (!row) return { key, failures: 1, alertedAt: null };
    const stale = row.lastFailureAt < forgetBefore;
    const before = stale ? 0 : row.failures;
    const waitMs = row.nextAttemptAt.getTime() - now.getTime();
    if (before > 0 && waitMs > 0) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      throw new GoTrueError(
        429,
        'over_request_rate_limit',
        `Too many failed sign-in attempts for this account. Please wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} before trying again, or reset your password.`,
        { headers: { 'retry-after': String(seconds) } },
      );
    }
    const failures = before + 1;
    await tx
      .update(loginThrottle)
      .set({
        failures,
        lastFailureAt: now,
        nextAttemptAt: new Date(now.getTime() + waitAfter(failures) * 1000),
        alertedAt: stale ? null : row.alertedAt,
      })
      .where(eq(loginThrottle.key, key));
    return { key, failures, alertedAt: stale ? null : row.alertedAt };
  });
}

/** A right password: the address starts afresh. */
export async function signInPassed(db: DbOrTx, attempt: SignInAttempt | null): Promise<void> {
  if (attempt) await db.delete(loginThrottle).where(eq(loginThrottle.key, attempt.key));
}

/**
 * Checks a password with exactly one argon2 verification whatever the account: against the
 * stored hash, or a dummy hash when there is no account or no password. Blocked, unknown and
 * normal accounts so take the same time and timing tells an attacker nothing.
 */
export async function checkPasswordEvenly(
  passwordHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!passwordHash || password === '') return verifyAgainstDummy(password);
  return verifyPassword(passwordHash, password);
}

/** The warning mail to an account owner after repeated failed sign-ins. */
export function failedSignInsMail(
  brand: { companyName: string; supportEmail: string },
  input: { failures: number; resetUrl: string },
) {
  return {
    subject: `Failed sign-in attempts on your ${brand.companyName} account`.replace(/\s+/g, ' '),
    ...renderMail(brand, {
      heading: 'Someone is trying to sign in to your account',
      paragraphs: [
        `There have been ${input.failures} failed sign-in attempts in a row on your ${brand.companyName} account, with a wrong password.`,
        'If this was you, you can ignore this e-mail. If not, someone may be guessing your password: choose a new, strong password now. Sign-in attempts on your account are slowed down in the meantime.',
        `We send this warning at most once a day. Questions? Write to ${brand.supportEmail}.`,
      ],
      action: { label: 'Choose a new password', url: input.resetUrl },
    }),
  };
}

/**
 * After a wrong password on a real account: when the failures in a row reach the alert
 * threshold, queue one warning mail to the owner (through the outbox) unless one went out in
 * the last 24 hours.
 */
export async function warnOwnerOfFailures(
  db: DbOrTx,
  config: Config,
  attempt: SignInAttempt | null,
  ownerEmail: string,
  now: Date = new Date(),
): Promise<void> {
  if (!attempt || attempt.failures < LOGIN_THROTTLE.alertAfterFailures) return;
  const windowStart = now.getTime() - LOGIN_THROTTLE.alertWindowSeconds * 1000;
  if (attempt.alertedAt && attempt.alertedAt.getTime() > windowStart) return;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ alertedAt: loginThrottle.alertedAt })
      .from(loginThrottle)
      .where(eq(loginThrottle.key, attempt.key))
      .for('update');
    if (!row || (row.alertedAt && row.alertedAt.getTime() > windowStart)) return;
    await tx
      .update(loginThrottle)
      .set({ alertedAt: now })
      .where(eq(loginThrottle.key, attempt.key));
    const brand = await getMailBrand(tx);
    await enqueueMail(tx, {
      to: ownerEmail,
      ...failedSignInsMail(brand, {
        failures: attempt.failures,
        resetUrl: new URL('/forgot-password', config.publicUrl).toString(),
      }),
    });
  });
}
