import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { normalizeEmail } from '../../../contract/email.ts';
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
