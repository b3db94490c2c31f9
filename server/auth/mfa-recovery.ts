// Two-factor recovery codes (issue 34): what a user types at the two-factor step when the phone
// with the authenticator app is gone. GoTrue has none; the wire shape is ours (server/auth/README.md).
import { randomInt } from 'node:crypto';
import { and, count, eq, isNull } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { mfaRecoveryCodes } from '../db/schema.ts';
import { GoTrueError } from './auth-errors.ts';
import type { AuthUser } from './guard.ts';
import { audit, self } from './mfa-audit.ts';
import { hashToken } from './tokens.ts';

/** How many codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a code, shown as two groups of five ("k3f9q-7xw2m"). */
const CODE_LENGTH = 10;
/** Crockford's base32 in lower case: no i, l, o or u to misread. 50 random bits per code. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A new code, as the user reads it: "xxxxx-xxxxx". */
function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < CODE_LENGTH; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/** The code as typed, reduced to its characters: case, spaces and dashes do not matter. */
function normalize(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** True when the text is shaped like a recovery code (and so cannot be an app's 6 digits). */
export function isRecoveryCodeShape(code: string): boolean {
  const n = normalize(code);
  return n.length === CODE_LENGTH && [...n].every((c) => ALPHABET.includes(c));
}

const hashOf = (userId: string, code: string) => hashToken(`${userId}:${normalize(code)}`);

/** Replaces the user's codes with a new set; returns the codes (only their hashes are kept). */
export async function replaceRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(newRecoveryCode());
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await tx
    .insert(mfaRecoveryCodes)
    .values([...codes].map((c) => ({ userId, codeHash: hashOf(userId, c) })));
  return [...codes];
}

/** True when the user has this code and it is still unused. */
export async function hasUnusedRecoveryCode(
  db: DbOrTx,
  userId: string,
  code: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: mfaRecoveryCodes.id })
    .from(mfaRecoveryCodes)
    .where(unusedCode(userId, code));
  return Boolean(row);
}

const unusedCode = (userId: string, code: string) =>
  and(
    eq(mfaRecoveryCodes.userId, userId),
    eq(mfaRecoveryCodes.codeHash, hashOf(userId, code)),
    isNull(mfaRecoveryCodes.usedAt),
  );

/**
 * Marks the code used; of two requests with the same code, only one gets true. Returns how
 * many unused codes are left (null when the code was not claimed).
 */
export async function claimRecoveryCode(
  tx: DbOrTx,
  userId: string,
  code: string,
): Promise<{ left: number } | null> {
  const claimed = await tx
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(unusedCode(userId, code))
    .returning({ id: mfaRecoveryCodes.id });
  if (claimed.length === 0) return null;
  const [left] = await tx
    .select({ n: count() })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return { left: Number(left?.n ?? 0) };
}

/** Removes every code of the user (their last authenticator app is gone). */
export async function removeRecoveryCodes(tx: DbOrTx, userId: string): Promise<void> {
  await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}

/**
 * POST /factors/recovery-codes: a new set of 10 recovery codes, shown this once, replacing the
 * old set. Only from a session that passed two-factor sign-in (aal2): 403 insufficient_aal
 * otherwise.
 */
export async function createRecoveryCodes(opts: {
  db: Db;
  config: Config;
  actor: AuthUser;
}): Promise<{ codes: string[] }> {
  const { db, actor } = opts;
  if (actor.aal !== 'aal2') {
    throw new GoTrueError(
      403,
      'insufficient_aal',
      'Recovery codes need a session signed in with two-factor sign-in (AAL2).',
    );
  }
  return db.transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, actor.id);
    await audit(tx, {
      actor: self(actor),
      action: 'mfa.recovery_codes_created',
      user: actor,
      after: { codes: codes.length, session_id: actor.sessionId },
    });
    return { codes };
  });
}
