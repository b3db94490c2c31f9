import type { DbOrTx } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export type OutgoingMail = { to: string; subject: string; text: string; html: string };

/**
 * Queues a mail. Pass the transaction of the change that causes the mail, so both are
 * written or neither; the outbox worker sends it afterwards.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailOutbox).values(mail);
}
