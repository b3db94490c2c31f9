import { eq } from 'drizzle-orm';
import type { NotificationKind } from '../../../contract/notifications.ts';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { renderMail } from '../../mail/layout.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { getMailBrand } from '../../mail/templates.ts';
import { notifyUser } from '../../notify/notify.ts';

/**
 * Tells a buyer about their campaign (approved, rejected, paused, budget alerts, a return's
 * decision): a notification and an e-mail, both in the caller's transaction.
 */
export async function tellBuyer(
  tx: DbOrTx,
  buyerId: string,
  n: { kind: NotificationKind; title: string; body: string; publicUrl: string },
): Promise<void> {
  const link = '/buyer-dashboard/campaigns';
  await notifyUser(tx, buyerId, { kind: n.kind, title: n.title, body: n.body, link });
  const [buyer] = await tx.select({ email: users.email }).from(users).where(eq(users.id, buyerId));
  if (!buyer) return;
  const brand = await getMailBrand(tx);
  const { html, text } = renderMail(brand, {
    heading: n.title,
    paragraphs: [n.body],
    action: { label: 'Open your campaigns', url: `${n.publicUrl}${link}` },
  });
  await enqueueMail(tx, { to: buyer.email, subject: n.title, html, text });
}
