import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export type OutboxMail = typeof mailOutbox.$inferSelect;

/** Outbox mails newest first, optionally only those to one address (case-insensitive). */
export async function listOutboxMails(opts: {
  db: DbOrTx;
  to?: string;
  limit: number;
}): Promise<OutboxMail[]> {
  const to = opts.to?.trim();
  return opts.db
    .select()
    .from(mailOutbox)
    .where(to ? eq(sql`lower(${mailOutbox.to})`, to.toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(opts.limit);
}

/** One outbox mail, or undefined. */
export async function getOutboxMail(opts: {
  db: DbOrTx;
  id: string;
}): Promise<OutboxMail | undefined> {
  const [row] = await opts.db.select().from(mailOutbox).where(eq(mailOutbox.id, opts.id));
  return row;
}
