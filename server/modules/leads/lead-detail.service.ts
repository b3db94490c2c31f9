import { eq } from 'drizzle-orm';
import { displayName } from '../../../contract/uploads.ts';
import { oneOrNotFound } from '../../db/rows.ts';
import { leads } from '../../db/schema.ts';
import { type AdminAction, auditTrail } from '../audit/index.ts';

const auditLead = auditTrail('lead');

/** Points the lead at a recording kept in storage; answers the key it replaced (to delete). */
export async function setLeadRecording(
  opts: AdminAction & { key: string },
): Promise<string | null> {
  return opts.db.transaction(async (tx) => {
    const before = await oneOrNotFound(
      tx.select({ key: leads.recordingKey }).from(leads).where(eq(leads.id, opts.id)).for('update'),
      'Lead',
    );
    await tx.update(leads).set({ recordingKey: opts.key }).where(eq(leads.id, opts.id));
    await auditLead(tx, opts.actor, 'recording', opts.id, {
      before: { recording: before.key ? displayName(before.key) : null },
      after: { recording: displayName(opts.key) },
    });
    return before.key;
  });
}
