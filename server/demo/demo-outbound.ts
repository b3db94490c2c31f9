import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { leads, postbackTemplates, users, webhookEndpoints } from '../db/schema.ts';

/** Where the demo's postback and webhook go: the portal's own dev sink (/dev/sink). */
export const demoSinkPaths = {
  postback: '/dev/sink/postback?call={call_id}&payout={payout}&status={status}',
  webhook: '/dev/sink/webhook',
} as const;

export type DemoOutbound = { postbackUrl: string; webhookUrl: string; leadsApproved: number };

/**
 * Issue 30's demo: the featured publisher's `approved` postback and one webhook endpoint
 * (lead.status_changed, dispute.decided), both to the portal's dev sink at `base`, then a few
 * of that publisher's pending calls approved, so the running portal sends a postback and a
 * webhook for each (the leads trigger writes the events; the engine delivers them once the
 * portal runs: its own /dev/sink is the one local target allowed without
 * OUTBOUND_ALLOW_PRIVATE, see isOwnDevSink in server/modules/outbound/safe-http.ts).
 */
export async function seedDemoOutbound(opts: {
  db: Db;
  publisherEmail: string;
  adminEmail: string;
  base: string;
  approve?: number;
}): Promise<DemoOutbound> {
  const { db, base } = opts;
  const postbackUrl = `${base}${demoSinkPaths.postback}`;
  const webhookUrl = `${base}${demoSinkPaths.webhook}`;
  return db.transaction(async (tx) => {
    const [publisher] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, opts.publisherEmail));
    const [admin] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, opts.adminEmail));
    if (!publisher || !admin) throw new Error('The demo accounts are missing.');
    await tx.insert(postbackTemplates).values({
      publisherId: publisher.id,
      offerId: null,
      event: 'approved',
      method: 'GET',
      url: postbackUrl,
      body: null,
    });
    await tx.insert(webhookEndpoints).values({
      url: webhookUrl,
      events: ['lead.status_changed', 'dispute.decided'],
      description: 'Demo: the portal’s own /dev/sink',
      secret: `whsec_${randomBytes(24).toString('base64')}`,
      createdBy: admin.id,
    });
    const pending = await tx
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(leads.publisherId, publisher.id), eq(leads.status, 'pending')))
      .orderBy(sql`${leads.createdAt} desc`)
      .limit(opts.approve ?? 3);
    if (pending.length) {
      await tx
        .update(leads)
        .set({ status: 'approved' })
        .where(
          inArray(
            leads.id,
            pending.map((p) => p.id),
          ),
        );
    }
    return { postbackUrl, webhookUrl, leadsApproved: pending.length };
  });
}
