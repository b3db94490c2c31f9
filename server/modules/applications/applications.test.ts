import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, complianceQuestionnaires, offerApplications } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { expectAnswer } from '../../test/expect-answer.ts';
import { buildOffer, buildPublisher, tokenFor } from '../../test/factories.ts';
import { exeFile, jpgFile, mp3File, mp4File, pdfFile, pngFile } from '../../test/fixtures.ts';
import { mailsTo } from '../../test/gotrue.ts';

const t = fileAdminTest();

async function buildApplication(status: 'draft' | 'pending' | 'approved' | 'rejected', over = {}) {
  const publisher = await buildPublisher(t.db, { name: `Pub ${status}`, ...over });
  const offer = await buildOffer(t.db, { title: `Offer for ${status}` });
  const [app] = await t.db
    .insert(offerApplications)
    .values({ offerId: offer.id, publisherId: publisher.id, status })
    .returning();
  return { app: app!, publisher, offer };
}

const statusOf = async (id: string) =>
  (
    await t.db
      .select({ s: offerApplications.status })
      .from(offerApplications)
      .where(eq(offerApplications.id, id))
  )[0]?.s;

/** Fetches a /files URL the API handed out, as a browser would. */
const fetchFile = (url: string) => t.app.inject({ url });

describe('GET /admin/applications', () => {
  it('lists non-draft applications with publisher name, e-mail and offer title', async () => {
    const pending = await buildApplication('pending');
    const draft = await buildApplication('draft');
    const res = await t.call('GET', '/applications');
    expect(res.statusCode).toBe(200);
    const ids = res.json().items.map((a: { id: string }) => a.id);
    expect(ids).toContain(pending.app.id);
    expect(ids).not.toContain(draft.app.id);
    const item = res.json().items.find((a: { id: string }) => a.id === pending.app.id);
    expect(item).toEqual({
      id: pending.app.id,
      offer_id: pending.offer.id,
      offer_title: 'Offer for pending',
      publisher_id: pending.publisher.id,
      publisher_name: 'Pub pending',
      publisher_email: pending.publisher.email,
      status: 'pending',
      created_at: pending.app.createdAt.toISOString(),
      io: null,
      reason: null,
      note: null,
      submissions: 0,
    });
  });

  it('filters by status, publisher and offer, searches, and refuses draft as a filter', async () => {
    const a = await buildApplication('rejected', { email: 'findme.rejected@example.test' });
    const rejected = await t.call('GET', '/applications', { query: { status: 'rejected' } });
    expect(rejected.json().items.every((x: { status: string }) => x.status === 'rejected')).toBe(
      true,
    );
    const byPublisher = await t.call('GET', '/applications', {
      query: { publisher_id: a.publisher.id },
    });
    expect(byPublisher.json().total).toBe(1);
    const byOffer = await t.call('GET', '/applications', { query: { offer_id: a.offer.id } });
    expect(byOffer.json().items[0].id).toBe(a.app.id);
    const search = await t.call('GET', '/applications', { query: { q: 'findme.rejected' } });
    expect(search.json().items.map((x: { id: string }) => x.id)).toEqual([a.app.id]);
    const draft = await t.call('GET', '/applications', { query: { status: 'draft' } });
    expect(draft.statusCode).toBe(400);
    const badId = await t.call('GET', '/applications', { query: { offer_id: 'x' } });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.message).toContain('This is not a valid offer id.');
  });
});

describe('PATCH /admin/applications/:id', () => {
  it('approves a pending application, audits it and e-mails the publisher', async () => {
    const { app, publisher } = await buildApplication('pending', { name: 'Apollo Approve' });
    const res = await t.call('PATCH', `/applications/${app.id}`, { body: { status: 'approved' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: app.id, status: 'approved', io: null });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, app.id));
    expect(audit).toMatchObject({
      action: 'application.approve',
      actorId: t.admin.id,
      before: { status: 'pending' },
      after: { status: 'approved' },
    });
    const mails = await mailsTo(t.db, publisher.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Your application for "Offer for pending" was approved');
    expect(mails[0]!.text).toContain('Apollo Approve');
    expect(mails[0]!.text).toContain('http://localhost:3000/dashboard');
  });

  it('rejects a pending application and tells the publisher', async () => {
    const { app, publisher } = await buildApplication('pending');
    const decision = {
      status: 'rejected',
      reason: 'script_not_followed',
      note: 'Call 2 skips the disclosure.',
    };
    const res = await t.call('PATCH', `/applications/${app.id}`, { body: decision });
    expectAnswer(res, 200, decision);
    const [mail] = await mailsTo(t.db, publisher.email);
    expect(mail!.subject).toContain('was not approved');
    expect(mail!.text).toContain(
      "The reviewer's reason: The calls do not follow the offer’s script. Call 2 skips the disclosure.",
    );
  });

  it('refuses deciding anything but a pending application (409), changing nothing', async () => {
    for (const [from, to] of [
      ['approved', 'rejected'],
      ['rejected', 'approved'],
      ['approved', 'approved'],
      ['draft', 'approved'],
    ] as const) {
      const { app, publisher } = await buildApplication(from);
      const reason = to === 'rejected' ? { reason: 'other', note: 'Late.' } : {};
      const res = await t.call('PATCH', `/applications/${app.id}`, {
        body: { status: to, ...reason },
      });
      expect(res.statusCode, `${from} → ${to}`).toBe(409);
      expect(res.json().error.message).toMatch(
        from === 'draft'
          ? /has not been submitted yet/
          : new RegExp(
              `Only a pending application can be approved or rejected; this one is already ${from}.`,
            ),
      );
      expect(await statusOf(app.id)).toBe(from);
      expect(await mailsTo(t.db, publisher.email)).toHaveLength(0);
    }
  });

  it('answers 400 for a status other than approved/rejected and 404 for an unknown id', async () => {
    const { app } = await buildApplication('pending');
    for (const status of ['pending', 'draft', 'ok', undefined]) {
      const res = await t.call('PATCH', `/applications/${app.id}`, { body: { status } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('status must be approved or rejected.');
    }
    const missing = await t.call('PATCH', `/applications/${crypto.randomUUID()}`, {
      body: { status: 'approved' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Application not found.');
  });
});

describe('PUT /admin/applications/:id/io', () => {
  const upload = async (id: string, file: Buffer, filename: string) => {
    return t.call('PUT', `/applications/${id}/io`, {
      multipart: [{ field: 'file', filename, content: file }],
    });
  };

  it('stores an IO for an approved application and answers a signed link that opens it', async () => {
    const { app } = await buildApplication('approved');
    const res = await upload(app.id, pdfFile, 'Signed IO.pdf');
    expect(res.statusCode).toBe(200);
    const io = res.json().io;
    expect(io.name).toBe('Signed_IO.pdf');
    expect(io.url).toMatch(/^\/files\/io_documents\/.+\?.*expires=.*sig=/);
    const file = await fetchFile(io.url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdfFile)).toBe(true);
    const [row] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, app.id));
    expect(row!.ioDocumentUrl).toMatch(/^io_documents\//);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, app.id));
    expect(audit).toMatchObject({
      action: 'application.io',
      before: { io_document_url: null },
      after: { io_document_url: row!.ioDocumentUrl },
    });
    // The list shows it as uploaded too.
    const list = await t.call('GET', '/applications', { query: { offer_id: row!.offerId } });
    expect(list.json().items[0].io.name).toBe('Signed_IO.pdf');
  });

  it('accepts jpg and png, replaces the old IO and deletes the old file', async () => {
    const { app } = await buildApplication('approved');
    const first = await upload(app.id, jpgFile, 'scan.jpg');
    expect(first.statusCode).toBe(200);
    const firstUrl = first.json().io.url;
    expect((await fetchFile(firstUrl)).statusCode).toBe(200);
    const second = await upload(app.id, pngFile, 'scan.png');
    expect(second.statusCode).toBe(200);
    expect(second.json().io.name).toBe('scan.png');
    expect((await fetchFile(firstUrl)).statusCode).toBe(404);
  });

  it('refuses an IO for an application that is not approved (409) before storing anything', async () => {
    for (const status of ['pending', 'rejected', 'draft'] as const) {
      const { app } = await buildApplication(status);
      const res = await upload(app.id, pdfFile, 'io.pdf');
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toBe(
        `An IO can only be uploaded for an approved application; this one is ${status}.`,
      );
    }
    expect((await upload(crypto.randomUUID(), pdfFile, 'io.pdf')).statusCode).toBe(404);
  });

  it('refuses other file types (415), a missing file (400) and a JSON body (415)', async () => {
    const { app } = await buildApplication('approved');
    const exe = await upload(app.id, exeFile, 'io.pdf');
    expect(exe.statusCode).toBe(415);
    expect(exe.json().error.message).toContain('PDF, JPG, JPEG or PNG');
    const mp3 = await upload(app.id, mp3File, 'io.mp3');
    expect(mp3.statusCode).toBe(415);
    const none = await t.call('PUT', `/applications/${app.id}/io`, { multipart: [] });
    expect(none.statusCode).toBe(400);
    const json = await t.call('PUT', `/applications/${app.id}/io`, { body: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const [row] = await t.db
      .select()
      .from(offerApplications)
      .where(eq(offerApplications.id, app.id));
    expect(row!.ioDocumentUrl).toBeNull();
  });
});

describe('GET /admin/compliance', () => {
  it('lists submissions with publisher, offer, application status and working signed URLs', async () => {
    const { app, publisher, offer } = await buildApplication('pending', { name: 'Compliant Co' });
    const put = (filename: string, data: Buffer, accept: ('mp3' | 'mp4' | 'pdf')[]) =>
      t.app.storage.putFile({
        bucket: 'compliance-questionnaires',
        owner: publisher.id,
        filename,
        stream: Readable.from(data),
        accept,
      });
    const audio = await put('call.mp3', mp3File, ['mp3']);
    const video = await put('call.mp4', mp4File, ['mp4']);
    const doc = await put('answers.pdf', pdfFile, ['pdf']);
    await t.db.insert(complianceQuestionnaires).values({
      publisherId: publisher.id,
      offerId: offer.id,
      applicationId: app.id,
      fileUrls: [audio.key, video.key],
      documentUrl: doc.key,
    });

    const res = await t.call('GET', '/compliance', { query: { q: 'Compliant Co' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(1);
    const s = res.json().items[0];
    expect(s).toMatchObject({
      application_id: app.id,
      application_status: 'pending',
      publisher_id: publisher.id,
      publisher_name: 'Compliant Co',
      publisher_email: publisher.email,
      offer_id: offer.id,
      offer_title: offer.title,
    });
    expect(s.media.map((m: { name: string }) => m.name)).toEqual(['call.mp3', 'call.mp4']);
    expect(s.document.name).toBe('answers.pdf');
    for (const link of [...s.media, s.document]) {
      const expires = Number(new URL(link.url, 'http://x').searchParams.get('expires'));
      const lifetime = expires - Date.now() / 1000;
      expect(lifetime).toBeGreaterThan(3590);
      expect(lifetime).toBeLessThanOrEqual(3601);
    }
    const audioRes = await fetchFile(s.media[0].url);
    expect(audioRes.statusCode).toBe(200);
    expect(audioRes.headers['content-type']).toContain('audio/mpeg');
    expect(audioRes.rawPayload.equals(mp3File)).toBe(true);

    // Deciding from the review moves it out of the pending filter.
    await t.call('PATCH', `/applications/${app.id}`, { body: { status: 'approved' } });
    const pending = await t.call('GET', '/compliance', {
      query: { q: 'Compliant Co', status: 'pending' },
    });
    expect(pending.json().total).toBe(0);
    const approved = await t.call('GET', '/compliance', {
      query: { q: 'Compliant Co', status: 'approved' },
    });
    expect(approved.json().items[0].application_status).toBe('approved');

    // Unfiltered, the total (counted without the applications) equals the rows listed and the
    // status filters' totals added up.
    const all = await t.call('GET', '/compliance', { query: { page_size: '200' } });
    const byStatus = await Promise.all(
      (['pending', 'approved', 'rejected'] as const).map(async (status) => {
        const r = await t.call('GET', '/compliance', { query: { status, page_size: '200' } });
        return r.json().total as number;
      }),
    );
    expect(all.json().total_exact).toBe(true);
    expect(all.json().total).toBe(all.json().items.length);
    expect(all.json().total).toBe(byStatus.reduce((a, b) => a + b, 0));
    expect(all.json().total).toBeGreaterThan(0);
  });
});

describe('reasons, resubmission and bulk decisions (issue 16)', () => {
  /** A publisher's compliance submission through the publisher API, as the browser sends it. */
  async function submitFiles(
    publisher: { id: string; email: string },
    applicationId: string,
    name: string,
  ) {
    const token = await tokenFor(t.db, t.config.jwtSecret, publisher);
    return callAs(
      t.app,
      token,
      'POST',
      `/api/v1/publisher/applications/${applicationId}/compliance`,
      {
        multipart: [
          { field: 'media', filename: `${name}.mp3`, content: mp3File },
          { field: 'document', filename: `${name}.pdf`, content: pdfFile },
        ],
      },
    );
  }

  it('a rejection needs a reason; "Another reason" needs a note (400 naming the field)', async () => {
    const { app } = await buildApplication('pending');
    const none = await t.call('PATCH', `/applications/${app.id}`, { body: { status: 'rejected' } });
    expect(none.statusCode).toBe(400);
    expect(JSON.stringify(none.json().error)).toContain(
      'Choose a reason for rejecting this application.',
    );
    const bad = await t.call('PATCH', `/applications/${app.id}`, {
      body: { status: 'rejected', reason: 'because' },
    });
    expect(bad.statusCode).toBe(400);
    const other = await t.call('PATCH', `/applications/${app.id}`, {
      body: { status: 'rejected', reason: 'other', note: '   ' },
    });
    expect(other.statusCode).toBe(400);
    expect(JSON.stringify(other.json().error)).toContain('Write a note');
    expect(await statusOf(app.id)).toBe('pending');
  });

  it('approving takes no reason, and a rejection only its own (400 naming them, issue 27)', async () => {
    const { app } = await buildApplication('pending');
    const approve = await t.call('PATCH', `/applications/${app.id}`, {
      body: { status: 'approved', reason: 'script_not_followed' },
    });
    expect(approve.statusCode).toBe(400);
    expect(approve.json().error.details.reason).toEqual([
      'No reason is given to approve an application: leave the reason out.',
    ]);
    const bulk = await t.call('POST', '/applications/bulk', {
      body: { ids: [app.id], status: 'approved', reason: 'other', note: 'Fine.' },
    });
    expect(bulk.statusCode).toBe(400);
    // A publisher's reason is not an application's: the answer lists the application's.
    const reject = await t.call('PATCH', `/applications/${app.id}`, {
      body: { status: 'rejected', reason: 'fraud_suspected' },
    });
    expect(reject.statusCode).toBe(400);
    const [why] = reject.json().error.details.reason;
    expect(why).toContain('"fraud_suspected" is not a reason to reject an application.');
    expect(why).toContain('recordings_incomplete (The call recordings are missing');
    expect(await statusOf(app.id)).toBe('pending');
    const ok = await t.call('PATCH', `/applications/${app.id}`, { body: { status: 'approved' } });
    expect(ok.statusCode).toBe(200);
  });

  it('the publisher reads the reason, resubmits new files; the admin sees every submission with its decision', async () => {
    const publisher = await buildPublisher(t.db, { name: 'Rita Resubmit' });
    const offer = await buildOffer(t.db, { title: 'Resubmit offer' });
    const [draft] = await t.db
      .insert(offerApplications)
      .values({ offerId: offer.id, publisherId: publisher.id, status: 'draft' })
      .returning();
    expect((await submitFiles(publisher, draft!.id, 'first')).statusCode).toBe(201);
    const rejected = await t.call('PATCH', `/applications/${draft!.id}`, {
      body: {
        status: 'rejected',
        reason: 'recordings_incomplete',
        note: 'The second call is cut.',
      },
    });
    expect(rejected.statusCode).toBe(200);

    // The publisher sees the reason on the offer's application.
    const pubToken = await tokenFor(t.db, t.config.jwtSecret, publisher);
    const offersRes = await t.app.inject({
      url: '/api/v1/publisher/offers',
      headers: { authorization: `Bearer ${pubToken}` },
    });
    const card = (offersRes.json().items as { id: string }[]).find((o) => o.id === offer.id);
    expect(card).toMatchObject({
      application_status: 'rejected',
      application_reason:
        'The call recordings are missing, cut short or hard to hear. The second call is cut.',
    });

    // New files: pending again, the reason cleared, both submissions kept.
    const again = await submitFiles(publisher, draft!.id, 'second');
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().application.status).toBe('pending');
    const history = await t.call('GET', `/applications/${draft!.id}/submissions`);
    expect(history.statusCode).toBe(200);
    const body = history.json();
    expect(body.application).toMatchObject({ status: 'pending', reason: null, submissions: 2 });
    expect(
      body.submissions.map(
        (x: {
          decision: string | null;
          reason: string | null;
          note: string | null;
          document: { name: string };
        }) => [x.decision, x.reason, x.note, x.document.name],
      ),
    ).toEqual([
      [null, null, null, 'second.pdf'],
      ['rejected', 'recordings_incomplete', 'The second call is cut.', 'first.pdf'],
    ]);
    // The compliance list shows both; only the newest can still be decided.
    const compliance = await t.call('GET', '/compliance', { query: { q: 'Rita Resubmit' } });
    expect(
      compliance
        .json()
        .items.map(
          (x: {
            document: { name: string };
            superseded: boolean;
            decision: string | null;
            reason: string | null;
          }) => [x.document.name, x.superseded, x.decision, x.reason],
        ),
    ).toEqual([
      ['second.pdf', false, null, null],
      ['first.pdf', true, 'rejected', 'recordings_incomplete'],
    ]);
    // A second submission of a pending application is still refused.
    expect((await submitFiles(publisher, draft!.id, 'third')).statusCode).toBe(409);
    // Approving decides the newest submission only.
    await t.call('PATCH', `/applications/${draft!.id}`, { body: { status: 'approved' } });
    const decided = (await t.call('GET', `/applications/${draft!.id}/submissions`)).json();
    expect(decided.submissions.map((x: { decision: string }) => x.decision)).toEqual([
      'approved',
      'rejected',
    ]);
  });

  it('the submissions of an unknown application are a 404', async () => {
    const res = await t.call('GET', `/applications/${crypto.randomUUID()}/submissions`);
    expect(res.statusCode).toBe(404);
  });

  it('filters the applications list by offer and status', async () => {
    const { app, offer } = await buildApplication('pending');
    const res = await t.call('GET', '/applications', {
      query: { offer_id: offer.id, status: 'pending' },
    });
    expect(res.json().items.map((a: { id: string }) => a.id)).toEqual([app.id]);
    const none = await t.call('GET', '/applications', {
      query: { offer_id: offer.id, status: 'approved' },
    });
    expect(none.json().items).toEqual([]);
  });

  it('rejects many applications with one reason; ones not pending are skipped with why', async () => {
    const a = await buildApplication('pending');
    const b = await buildApplication('pending');
    const done = await buildApplication('approved');
    const missing = crypto.randomUUID();
    const res = await t.call('POST', '/applications/bulk', {
      body: {
        ids: [a.app.id, b.app.id, done.app.id, missing],
        status: 'rejected',
        reason: 'traffic_not_allowed',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      decided: 2,
      skipped: [
        {
          id: done.app.id,
          message:
            'Only a pending application can be approved or rejected; this one is already approved.',
        },
        { id: missing, message: 'Application not found.' },
      ],
    });
    expect(await statusOf(a.app.id)).toBe('rejected');
    expect(await statusOf(b.app.id)).toBe('rejected');
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.entityId, b.app.id));
    expect(audits.at(-1)).toMatchObject({
      action: 'application.reject',
      after: { reason: 'traffic_not_allowed' },
    });
    const [mail] = await mailsTo(t.db, a.publisher.email);
    expect(mail!.text).toContain('The traffic source is not allowed on this offer.');
    // No reason for a rejection, or nothing selected: 400.
    const noReason = await t.call('POST', '/applications/bulk', {
      body: { ids: [a.app.id], status: 'rejected' },
    });
    expect(noReason.statusCode).toBe(400);
    const empty = await t.call('POST', '/applications/bulk', {
      body: { ids: [], status: 'approved' },
    });
    expect(empty.statusCode).toBe(400);
    expect(JSON.stringify(empty.json().error)).toContain('Select at least one row.');
  });

  it('approves many applications at once', async () => {
    const a = await buildApplication('pending');
    const b = await buildApplication('pending');
    const res = await t.call('POST', '/applications/bulk', {
      body: { ids: [a.app.id, b.app.id], status: 'approved' },
    });
    expect(res.json()).toEqual({ decided: 2, skipped: [] });
    expect(await statusOf(a.app.id)).toBe('approved');
  });
});
