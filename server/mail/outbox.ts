import type { DbOrTx } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

/** A file sent with a mail: its storage key (the worker reads it when sending), name and type. */
export type MailAttachment = { key: string; filename: string; contentType: string };

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
};

/**
 * Queues a mail. Pass the transaction of the change that causes the mail, so both are
 * written or neither; the outbox worker sends it afterwards.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<void> {
  await db.insert(mailOutbox).values(mail);
}
