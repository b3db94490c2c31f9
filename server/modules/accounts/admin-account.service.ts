import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { normalizeEmail } from '../../../contract/email.ts';
import { resetUserFactors } from '../../auth/mfa.service.ts';
import { hashPassword } from '../../auth/password.ts';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';

/** Creates a confirmed, active admin; 409 when the e-mail is taken. */
export async function createAdmin(db: DbOrTx, input: { email: string; password: string }) {
  const email = normalizeEmail(input.email);
  if (!email) {
    throw new AppError('validation_failed', 'The e-mail address is not valid.');
  }
  if (input.password.length < 6) {
    throw new AppError('validation_failed', 'Password should be at least 6 characters.');
  }
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (taken) throw new AppError('conflict', `A user with the e-mail ${email} already exists.`);
  const [row] = await db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(input.password),
      emailConfirmedAt: new Date(),
      role: 'admin',
      status: 'active',
      name: 'Administrator',
    })
    .returning({ id: users.id, email: users.email });
  return row!;
}

/**
 * First start only (no admin yet): creates the admin from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * admin@localhost with a generated password. Returns what to print once, or null.
 */
export async function ensureFirstAdmin(
  db: DbOrTx,
  given: { email: string | undefined; password: string | undefined },
): Promise<{ email: string; password: string; generated: boolean } | null> {
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin')))
    .limit(1);
  if (existing) return null;
  const email = given.email ?? 'admin@localhost';
  const generated = !given.password;
  const password = given.password ?? randomBytes(12).toString('base64url');
  await createAdmin(db, { email, password });
  return { email, password, generated };
}

/** Who the audit log and the user's mail name for `npm run create-admin -- --reset-mfa`. */
export const OPERATOR_ACTOR = { id: null, email: 'the portal operator (npm run create-admin)' };

/**
 * `npm run create-admin -- --reset-mfa EMAIL`: removes every second factor of the account (a lost
 * phone), audited and mailed like an admin's reset. 404 when there is no such account.
 */
export async function resetMfaByEmail(db: DbOrTx, rawEmail: string) {
  const email = normalizeEmail(rawEmail);
  if (!email) throw new AppError('validation_failed', 'The e-mail address is not valid.');
  const [user] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (!user) throw new AppError('not_found', `No account has the e-mail ${email}.`);
  const { removed } = await resetUserFactors({ db, user, actor: OPERATOR_ACTOR });
  return { email: user.email, removed };
}
