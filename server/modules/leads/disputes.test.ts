import { readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, leads, mailOutbox } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildAdmin, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { pdfFile } from '../../test/fixtures.ts';

/**
 * Lead disputes (issue 13): a publisher disputes a rejected or unpaid lead of their own, with a
 * message and an optional file; the admin sees open disputes, answers, and accepts or declines;
 * both sides get mails and see the thread on the lead.
 */

let t: AdminTestContext;
let pub: TestUser;
let other: TestUser;
let secondAdmin: TestUser;
let pubToken: string;
let otherToken: string;
let offer: Awaited<ReturnType<typeof buildOffer>>;

const newLead = async (over: Partial<typeof leads.$inferInsert> = {}) => {
  const [row] = await t.db
    .insert(leads)
    .values({
      publisherId: pub.id,
      offerId: offer.id,
      payout: '30.00',
      status: 'rejected',
      statusReason: 'Duration 41 s under the 90 s buffer',
      ...over,
    })
    .returning();
  return row!;
};

/** POST /publisher/leads/:id/disputes as a browser sends the form. */
const dispute = async (
  leadId: string,
  message: string | null,
  opts: { token?: string; file?: { name: string; data: Buffer } } = {},
) => {
  const form = new FormData();
  if (message !== null) form.append('message', message);
  if (opts.file) form.append('file', new Blob([new Uint8Array(opts.file.data)]), opts.file.name);
  const res = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/publisher/leads/${leadId}/disputes`,
    headers: {
      authorization: `Bearer ${opts.token ?? pubToken}`,
      'content-type': res.headers.get('content-type')!,
    },
    payload: Buffer.from(await res.arrayBuffer()),
  });
};

const asPublisher = (method: 'GET' | 'POST', url: string, body?: unknown, token = pubToken) =>
  callAs(t.app, token, method, `/api/v1/publisher${url}`, { body });

/** The mails to `email`, oldest first (a heap's order is not the order of writing). */
const mailsTo = (email: string) =>
  t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(mailOutbox.createdAt);

const storedDisputeFiles = () => {
  const dir = path.join(t.config.dataDir, 'storage', 'lead_disputes');
  try {
    return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.pdf'));
  } catch {
    return [];
  }
};

beforeAll(async () => {
  t = await setupAdminTest();
  secondAdmin = await buildAdmin(t.db);
  pub = await buildPublisher(t.db, { name: 'Pixel Pat' });
  other = await buildPublisher(t.db, { name: 'Other Olga' });
  pubToken = await t.tokenOf(pub);
  otherToken = await t.tokenOf(other);
  offer = await buildOffer(t.db, { title: 'Auto Insurance', payout: '30.00' });
});
afterAll(() => t.close());

describe('opening a dispute', () => {
  it('opens one with a message and a file, tells every admin, and shows it on the lead', async () => {
    const lead = await newLead();
    const res = await dispute(lead.id, 'The caller stayed 95 s, see the attached log.', {
      file: { name: 'call-log.pdf', data: pdfFile },
    });
    expect(res.statusCode).toBe(201);
    const d = (await asPublisher('GET', `/leads/${lead.id}`)).json();
    expect(d.can_dispute).toBe(false);
    expect(d.disputes).toHaveLength(1);
    expect(d.disputes[0]).toMatchObject({ status: 'open', decided_at: null });
    const [first] = d.disputes[0].messages;
    expect(first).toMatchObject({
      author: 'publisher',
      author_name: 'Pixel Pat',
      body: 'The caller stayed 95 s, see the attached log.',
      file: { name: 'call-log.pdf' },
    });
    const file = await t.app.inject({ method: 'GET', url: first.file.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');

    for (const admin of [t.admin, secondAdmin]) {
      const [mail] = await mailsTo(admin.email);
      expect(mail?.subject).toBe('New lead dispute from Pixel Pat: Auto Insurance');
      expect(mail?.text).toContain('The caller stayed 95 s');
      expect(mail?.text).toContain(`/admin/leads/${lead.id}`);
    }
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, lead.id), eq(auditLog.action, 'dispute.open')));
    expect(audit?.actorId).toBe(pub.id);
  });

  it('allows one open dispute per lead, also when two arrive at once', async () => {
    const lead = await newLead({ status: 'pending' });
    const both = await Promise.all([dispute(lead.id, 'First'), dispute(lead.id, 'Second')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const again = await dispute(lead.id, 'Third');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'This lead already has an open dispute. Add a message to it instead.',
    );
  });

  it('refuses an approved, paid lead, and takes an approved lead paid nothing', async () => {
    const paid = await newLead({ status: 'approved', statusReason: null });
    const res = await dispute(paid.id, 'Please check');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(
      'This lead is approved and paid: there is nothing to dispute.',
    );
    const unpaid = await newLead({ status: 'approved', payout: '0.00' });
    expect((await dispute(unpaid.id, 'It paid $0')).statusCode).toBe(201);
  });

  it('needs a message, and keeps no file of a refused dispute', async () => {
    const lead = await newLead();
    const files = storedDisputeFiles().length;
    const res = await dispute(lead.id, '   ', { file: { name: 'proof.pdf', data: pdfFile } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please write a message.');
    expect((await dispute(lead.id, null)).statusCode).toBe(400);
    expect(storedDisputeFiles().length).toBe(files);
    // A file of a type the rule does not take is refused, also with nothing kept.
    const doc = await dispute(lead.id, 'See file', {
      file: { name: 'notes.txt', data: Buffer.from('hello') },
    });
    expect(doc.statusCode).toBe(415);
    expect(storedDisputeFiles().length).toBe(files);
  });

  it("answers 404 for another publisher's lead and stores nothing", async () => {
    const lead = await newLead();
    const files = storedDisputeFiles().length;
    const res = await dispute(lead.id, 'Mine now', {
      token: otherToken,
      file: { name: 'x.pdf', data: pdfFile },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Lead not found.');
    expect(storedDisputeFiles().length).toBe(files);
  });
});

describe('answering and deciding', () => {
  let leadId: string;
  let disputeId: string;

  beforeAll(async () => {
    const lead = await newLead({ payout: '0.00' });
    leadId = lead.id;
    expect((await dispute(leadId, 'This call qualified.')).statusCode).toBe(201);
    const list = await t.call('GET', '/disputes');
    expect(list.statusCode).toBe(200);
    const item = list.json().items.find((i: { lead_id: string }) => i.lead_id === leadId);
    expect(item).toMatchObject({
      status: 'open',
      publisher_name: 'Pixel Pat',
      offer_title: 'Auto Insurance',
      lead_status: 'rejected',
      last_message: 'This call qualified.',
      last_author: 'publisher',
    });
    disputeId = item.id;
  });

  it('lists open disputes only by default, the newest activity first', async () => {
    const list = (await t.call('GET', '/disputes')).json();
    expect(list.items.every((i: { status: string }) => i.status === 'open')).toBe(true);
    expect(list.items[0].id).toBe(disputeId);
    expect(list.total).toBe(list.items.length);
    expect(list.total_exact).toBe(true);
    const bad = await t.call('GET', '/disputes', { query: { status: 'maybe' } });
    expect(bad.statusCode).toBe(400);
  });

  it('lets the admin and the publisher write in the thread, each telling the other side', async () => {
    const before = (await mailsTo(pub.email)).length;
    const answer = await t.call('POST', `/disputes/${disputeId}/messages`, {
      body: { message: 'Can you send the tracker log?' },
    });
    expect(answer.statusCode).toBe(201);
    const mails = await mailsTo(pub.email);
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)?.subject).toBe('Reply to your lead dispute: Auto Insurance');
    expect(mails.at(-1)?.text).toContain(`/dashboard/leads/${leadId}`);

    const adminMails = (await mailsTo(t.admin.email)).length;
    const reply = await asPublisher('POST', `/disputes/${disputeId}/messages`, {
      message: 'Sent by e-mail.',
    });
    expect(reply.statusCode).toBe(201);
    expect((await mailsTo(t.admin.email)).length).toBe(adminMails + 1);

    const d = (await asPublisher('GET', `/leads/${leadId}`)).json();
    expect(
      d.disputes[0].messages.map((m: { author_name: string; body: string }) => [
        m.author_name,
        m.body,
      ]),
    ).toEqual([
      ['Pixel Pat', 'This call qualified.'],
      ['Network team', 'Can you send the tracker log?'],
      ['Pixel Pat', 'Sent by e-mail.'],
    ]);
    // The admin sees which admin answered.
    const a = (await t.call('GET', `/leads/${leadId}`)).json();
    expect(a.disputes[0].messages[1].author_name).toBe(t.admin.email);
  });

  it('answers 404 to another publisher on this dispute and 400 to an empty message', async () => {
    const res = await asPublisher(
      'POST',
      `/disputes/${disputeId}/messages`,
      { message: 'hi' },
      otherToken,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Dispute not found.');
    const empty = await t.call('POST', `/disputes/${disputeId}/messages`, {
      body: { message: '' },
    });
    expect(empty.statusCode).toBe(400);
    const decline = await t.call('POST', `/disputes/${disputeId}/decline`, { body: {} });
    expect(decline.statusCode).toBe(400);
  });

  it('accepts: the lead becomes approved and payable, says why, is audited and mailed', async () => {
    const res = await t.call('POST', `/disputes/${disputeId}/accept`, {
      body: { message: 'Confirmed with the buyer.' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: disputeId, status: 'accepted' });
    const [lead] = await t.db.select().from(leads).where(eq(leads.id, leadId));
    expect(lead).toMatchObject({
      status: 'approved',
      payout: '30.00',
      statusReason: 'Approved after the publisher’s dispute was accepted.',
    });
    expect(lead?.statusOverriddenAt).toBeInstanceOf(Date);
    const d = (await asPublisher('GET', `/leads/${leadId}`)).json();
    expect(d).toMatchObject({ status: 'approved', payout: 30, can_dispute: false });
    expect(d.disputes[0].status).toBe('accepted');
    expect(d.disputes[0].decided_at).not.toBeNull();
    expect(d.history[0]).toMatchObject({ action: 'dispute.accept', by: 'Network team' });
    // The publisher's own opening of the dispute is theirs, by name, on both sides (issue 34).
    const opened = (h: { action: string }[]) => h.find((e) => e.action === 'dispute.open');
    expect(opened(d.history)).toMatchObject({ by: 'Pixel Pat' });
    const a = (await t.call('GET', `/leads/${leadId}`)).json();
    expect(opened(a.history)).toMatchObject({ by: 'Pixel Pat' });
    expect(a.history[0]).toMatchObject({ action: 'dispute.accept', by: t.admin.email });
    expect(d.history[0].changes).toEqual(
      expect.arrayContaining([
        { field: 'status', before: 'rejected', after: 'approved' },
        { field: 'payout', before: '0', after: '30' },
      ]),
    );
    const [mail] = (await mailsTo(pub.email)).slice(-1);
    expect(mail?.subject).toBe('Your lead dispute was accepted: Auto Insurance');
    expect(mail?.text).toContain('Confirmed with the buyer.');
    // Gone from the open list, found under accepted.
    const open = (await t.call('GET', '/disputes')).json();
    expect(open.items.map((i: { id: string }) => i.id)).not.toContain(disputeId);
    const accepted = (await t.call('GET', '/disputes', { query: { status: 'accepted' } })).json();
    expect(accepted.items.map((i: { id: string }) => i.id)).toContain(disputeId);
  });

  it('refuses a second decision or a reply on a decided dispute', async () => {
    const again = await t.call('POST', `/disputes/${disputeId}/decline`, {
      body: { message: 'No' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('This dispute was already accepted.');
    const reply = await asPublisher('POST', `/disputes/${disputeId}/messages`, {
      message: 'Thanks',
    });
    expect(reply.statusCode).toBe(409);
  });

  it('declines: the lead stays as it was, the publisher is told why and may dispute again', async () => {
    const lead = await newLead();
    expect((await dispute(lead.id, 'Please review')).statusCode).toBe(201);
    const item = (await t.call('GET', '/disputes')).json().items[0];
    expect(item.lead_id).toBe(lead.id);
    const res = await t.call('POST', `/disputes/${item.id}/decline`, {
      body: { message: 'The caller hung up before the buffer.' },
    });
    expect(res.statusCode).toBe(200);
    const [after] = await t.db.select().from(leads).where(eq(leads.id, lead.id));
    expect(after).toMatchObject({ status: 'rejected', statusReason: lead.statusReason });
    const [mail] = (await mailsTo(pub.email)).slice(-1);
    expect(mail?.subject).toBe('Your lead dispute was declined: Auto Insurance');
    expect(mail?.text).toContain('The caller hung up before the buffer.');
    const d = (await asPublisher('GET', `/leads/${lead.id}`)).json();
    expect(d.disputes[0].status).toBe('declined');
    expect(d.can_dispute).toBe(true);
  });

  it('answers 404 for a dispute that does not exist', async () => {
    const res = await t.call('POST', `/disputes/${crypto.randomUUID()}/accept`, { body: {} });
    expect(res.statusCode).toBe(404);
  });
});
