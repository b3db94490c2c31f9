// The MFA audit entries: one shape for the factor, challenge and recovery-code changes.
import type { DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import type { AuthUser } from './guard.ts';

/** Who caused an MFA audit entry: the signed-in user, an admin, or the operator's command. */
export type MfaActor = { id: string | null; email: string };

/** Writes an MFA audit entry (entity: the user whose factors changed, by role). */
export async function audit(
  db: DbOrTx,
  entry: {
    actor: MfaActor;
    action: string;
    user: { id: string; role: string };
    after: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actor.id,
    actorEmail: entry.actor.email,
    action: entry.action,
    entityType: entry.user.role,
    entityId: entry.user.id,
    before: null,
    after: entry.after,
  });
}

export const self = (actor: AuthUser): MfaActor => ({ id: actor.id, email: actor.email });
