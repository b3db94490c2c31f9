import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';

/** The user whose factors an admin resets: any role, admins included. */
export async function findUserForMfaReset(db: DbOrTx, id: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.id, id));
  return row;
}
