import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLISHER_MESSAGES } from '../../../contract/publisher.ts';
import { complianceQuestionnaires, offerApplications, users } from '../../db/schema.ts';
import { createLocalStorage } from '../../storage/local.ts';
import type { Storage } from '../../storage/storage.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { callAs } from '../../test/call-as.ts';
import { buildOffer, buildPublisher, type TestUser, tokenFor } from '../../test/factories.ts';
import {
  docFile,
  docxFile,
  exeFile,
  mp3File,
  mp4File,
  pdfFile,
  textFile,
} from '../../test/fixtures.ts';

// The app runs on real local storage, wrapped so a test can make the Nth putFile fail.
const storageRoot = mkdtempSync(path.join(tmpdir(), 'pubapi-storage-'));
const secret = randomBytes(32).toString('hex');
const inner = createLocalStorage({ root: storageRoot, secret });
const faults = { failOnPut: 0, puts: 0 };
const storage: Storage = {
  async putFile(input) {
    faults.puts++;
    if (faults.failOnPut && faults.puts === faults.failOnPut) {
      input.stream.resume();
      throw new Error('simulated storage outage');
    }
    return inner.putFile(input);
  },
  delete: (key) => inner.delete(key),
  read: (key, range) => inner.read(key, range),
  stat: (key) => inner.stat(key),
  signedUrl: (key, s) => inner.signedUrl(key, s),
  publicUrl: (key) => inner.publicUrl(key),
};

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceToken: string;
let bobToken: string;

beforeAll(async () => {
  t = await buildTestApp({ env: { JWT_SECRET: secret }, deps: { storage } });
  alice = await buildPublisher(t.db);
  bob = await buildPublisher(t.db);
  aliceToken = await tokenFor(t.db, t.config.jwtSecret, alice);
  bobToken = await tokenFor(t.db, t.config.jwtSecret, bob);
});
afterAll(async () => {
  await t.close();
  rmSync(storageRoot, { recursive: true, force: true });
});
beforeEach(() => {
  faults.failOnPut = 0;
  faults.puts = 0;
});

type Part = { field: string; filename?: string; content: Buffer | string; type?: string };

/** A real multipart/form-data body. */
function multipart(parts: Part[]) {
  const boundary = `----pubapi${randomUUID()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = p.filename
      ? `form-data; name="${p.field}"; filename="${p.filename}"`
      : `form-data; name="${p.field}"`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${
      p.filename ? `Content-Type: ${p.type ?? 'application/octet-stream'}\r\n` : ''
    }\r\n`;
    chunks.push(Buffer.from(head), Buffer.from(p.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const mp3 = (name = 'call.mp3'): Part => ({
  field: 'media',
  filename: name,
  content: mp3File,
  type: 'audio/mpeg',
});
const pdf = (name = 'script.pdf'): Part => ({
  field: 'document',
  filename: name,
  content: pdfFile,
  type: 'application/pdf',
});

const submit = (token: string, applicationId: string, parts: Part[]) => {
  const body = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/publisher/applications/${applicationId}/compliance`,
    headers: { authorization: `Bearer ${token}`, ...body.headers },
    payload: body.payload,
  });
};

const apply = (token: string, offerId: string) =>
  callAs(t.app, token, 'POST', '/api/v1/publisher/applications', { body: { offer_id: offerId } });
const startDraft = async (token: string) => {
  const offer = await buildOffer(t.db);
  const res = await apply(token, offer.id);
  expect(res.statusCode).toBe(201);
  return { offer, draftId: res.json().id as string };
};

/** Every file stored under the compliance bucket on disk. */
function storedComplianceFiles(): string[] {
  const dir = path.join(storageRoot, 'compliance-questionnaires');
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => path.join(d.parentPath, d.name));
  } catch {
    return [];
  }
}

async function expectNothingLeft(draftId: string, filesBefore: number) {
  expect(storedComplianceFiles()).toHaveLength(filesBefore);
  const [app] = await t.db
    .select()
    .from(offerApplications)
    .where(eq(offerApplications.id, draftId));
  expect(app?.status).toBe('draft');
  const q = await t.db
    .select()
    .from(complianceQuestionnaires)
    .where(eq(complianceQuestionnaires.applicationId, draftId));
  expect(q).toHaveLength(0);
}

describe('POST /applications/:id/compliance', () => {
  it('stores two mp3 files and a pdf, records the questionnaire and makes the draft pending', async () => {
    const before = storedComplianceFiles().length;
    const { offer, draftId } = await startDraft(aliceToken);
    const res = await submit(aliceToken, draftId, [
      mp3('first call.mp3'),
      mp3('second.mp3'),
      pdf(),
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      application: { id: draftId, offer_id: offer.id, status: 'pending' },
      questionnaire: { media_count: 2, document_name: 'script.pdf' },
    });
    const [q] = await t.db
      .select()
      .from(complianceQuestionnaires)
      .where(eq(complianceQuestionnaires.applicationId, draftId));
    expect(q).toMatchObject({ publisherId: alice.id, offerId: offer.id });
    expect(q!.fileUrls).toHaveLength(2);
    for (const key of [...q!.fileUrls, q!.documentUrl]) {
      expect(key.startsWith(`compliance-questionnaires/${alice.id}/`)).toBe(true);
      expect(await storage.stat(key)).not.toBeNull();
    }
    expect(storedComplianceFiles()).toHaveLength(before + 3);

    // The offer now shows its status instead of Apply Now, and the card counts it.
    const offers = await t.app.inject({
      url: '/api/v1/publisher/offers',
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    const row = offers.json().items.find((o: { id: string }) => o.id === offer.id);
    expect(row).toMatchObject({ application_id: draftId, application_status: 'pending' });
    const overview = await t.app.inject({
      url: '/api/v1/publisher/overview',
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(overview.json().applied_offers).toBe(1);
    expect(overview.json().recent_activity[0]).toMatchObject({ type: 'application_submitted' });

    // Applying again is refused; a submitted application cannot be deleted as a draft.
    const again = await apply(aliceToken, offer.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_applied');
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/publisher/applications/${draftId}`,
      headers: { authorization: `Bearer ${aliceToken}` },
    });
    expect(del.statusCode).toBe(404);
    const resubmit = await submit(aliceToken, draftId, [mp3(), pdf()]);
    expect(resubmit.statusCode).toBe(409);
  });

  it('accepts an mp4 with a docx, and three media files with a doc', async () => {
    const a = await startDraft(aliceToken);
    const r1 = await submit(aliceToken, a.draftId, [
      { field: 'media', filename: 'call.mp4', content: mp4File, type: 'video/mp4' },
      { field: 'document', filename: 'terms.docx', content: docxFile },
    ]);
    expect(r1.statusCode).toBe(201);
    const b = await startDraft(aliceToken);
    const r2 = await submit(aliceToken, b.draftId, [
      mp3('a.mp3'),
      mp3('b.mp3'),
      { field: 'media', filename: 'c.mp4', content: mp4File },
      { field: 'document', filename: 'terms.doc', content: docFile },
    ]);
    expect(r2.statusCode).toBe(201);
    expect(r2.json().questionnaire.media_count).toBe(3);
  });

  it("answers 'Missing Files' (400) without media, without a document, or with nothing", async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(aliceToken);
    for (const parts of [[pdf()], [mp3(), mp3('b.mp3')], [{ field: 'note', content: 'hi' }]]) {
      const res = await submit(aliceToken, draftId, parts);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'missing_files',
        message: 'Please upload both media files and a document.',
      });
      await expectNothingLeft(draftId, before);
    }
  });

  it("answers 'Too many files' (400) for a fourth media file and keeps nothing", async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(aliceToken);
    const res = await submit(aliceToken, draftId, [
      mp3('1.mp3'),
      mp3('2.mp3'),
      mp3('3.mp3'),
      mp3('4.mp3'),
      pdf(),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'too_many_files',
      message: PUBLISHER_MESSAGES.tooManyFiles,
    });
    await expectNothingLeft(draftId, before);
  });

  it('refuses a second document with 400 and keeps nothing', async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(aliceToken);
    const res = await submit(aliceToken, draftId, [mp3(), pdf('a.pdf'), pdf('b.pdf')]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Please upload exactly one document.');
    await expectNothingLeft(draftId, before);
  });

  const wrongTypes: [string, Part[]][] = [
    [
      'a renamed .exe sent as .mp3',
      [{ field: 'media', filename: 'call.mp3', content: exeFile, type: 'audio/mpeg' }, pdf()],
    ],
    [
      'a text file sent as .mp3',
      [{ field: 'media', filename: 'call.mp3', content: textFile, type: 'audio/mpeg' }, pdf()],
    ],
    ['a pdf named .mp4', [{ field: 'media', filename: 'call.mp4', content: pdfFile }, pdf()]],
    [
      'an mp3 as the document',
      [mp3(), { field: 'document', filename: 'doc.pdf', content: mp3File }],
    ],
    ['a wav file', [mp3(), { field: 'media', filename: 'call.wav', content: mp3File }, pdf()]],
  ];
  for (const [what, parts] of wrongTypes) {
    it(`answers 415 for ${what}, stores nothing and keeps the draft`, async () => {
      const before = storedComplianceFiles().length;
      const { draftId } = await startDraft(aliceToken);
      const res = await submit(aliceToken, draftId, parts);
      expect(res.statusCode).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
      expect(res.json().error.message).toMatch(/Only .* files are accepted\./);
      await expectNothingLeft(draftId, before);
    });
  }

  it('answers 415 for a request that is not multipart', async () => {
    const { draftId } = await startDraft(aliceToken);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/publisher/applications/${draftId}/compliance`,
      headers: { authorization: `Bearer ${aliceToken}` },
      payload: { media: 'x' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('leaves nothing behind when storage fails in the middle of a submission', async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(aliceToken);
    faults.failOnPut = 3; // two media files are stored, the document fails
    const res = await submit(aliceToken, draftId, [mp3('a.mp3'), mp3('b.mp3'), pdf()]);
    expect(faults.puts).toBe(3);
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('internal_error');
    expect(res.body).not.toContain('simulated storage outage');
    await expectNothingLeft(draftId, before);
    // The same draft can be submitted once storage works again.
    faults.failOnPut = 0;
    expect((await submit(aliceToken, draftId, [mp3(), pdf()])).statusCode).toBe(201);
  });

  it('deletes the stored files when the database fails after they were stored', async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(aliceToken);
    // A real database error on the draft → pending step, after the questionnaire insert.
    await t.db.execute(sql`
      create or replace function pubapi_fail_submit() returns trigger language plpgsql as $$
      begin raise exception 'simulated database failure'; end $$`);
    await t.db.execute(
      sql.raw(`
      create trigger pubapi_fail_submit before update on offer_applications
      for each row when (new.id = '${draftId}' and new.status = 'pending')
      execute function pubapi_fail_submit()`),
    );
    try {
      const res = await submit(aliceToken, draftId, [mp3('a.mp3'), mp3('b.mp3'), pdf()]);
      expect(res.statusCode).toBe(500);
      expect(faults.puts).toBe(3);
      await expectNothingLeft(draftId, before);
    } finally {
      await t.db.execute(sql`drop trigger pubapi_fail_submit on offer_applications`);
    }
    expect((await submit(aliceToken, draftId, [mp3(), pdf()])).statusCode).toBe(201);
  });

  it("answers 404 for another publisher's draft and stores nothing", async () => {
    const before = storedComplianceFiles().length;
    const { draftId } = await startDraft(bobToken);
    const res = await submit(aliceToken, draftId, [mp3(), pdf()]);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Application not found.');
    await expectNothingLeft(draftId, before);
    expect((await submit(aliceToken, randomUUID(), [mp3(), pdf()])).statusCode).toBe(404);
    expect((await submit(aliceToken, 'nope', [mp3(), pdf()])).statusCode).toBe(404);
  });

  it('refuses a pending publisher (403) and an offer made inactive meanwhile (409)', async () => {
    const pending = await buildPublisher(t.db, { status: 'pending' });
    const token = await tokenFor(t.db, t.config.jwtSecret, pending);
    const offer = await buildOffer(t.db);
    const [draft] = await t.db
      .insert(offerApplications)
      .values({ offerId: offer.id, publisherId: pending.id, status: 'draft' })
      .returning();
    const res = await submit(token, draft!.id, [mp3(), pdf()]);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(PUBLISHER_MESSAGES.accountPending);

    const before = storedComplianceFiles().length;
    const { offer: closing, draftId } = await startDraft(aliceToken);
    await t.db.execute(sql`update offers set status = 'inactive' where id = ${closing.id}`);
    const gone = await submit(aliceToken, draftId, [mp3(), pdf()]);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error).toEqual({
      code: 'offer_unavailable',
      message: 'This offer is no longer available.',
    });
    await expectNothingLeft(draftId, before);
  });
});

describe('documents and campaign IOs', () => {
  let dana: TestUser;
  let danaToken: string;

  beforeAll(async () => {
    dana = await buildPublisher(t.db);
    danaToken = await tokenFor(t.db, t.config.jwtSecret, dana);
  });

  const get = (token: string, url: string) =>
    t.app.inject({ url: `/api/v1/publisher${url}`, headers: { authorization: `Bearer ${token}` } });
  const put = (bucket: 'marketing_agreements' | 'io_documents', owner: string, name: string) =>
    inner.putFile({
      bucket,
      owner,
      filename: name,
      stream: (async function* () {
        yield pdfFile;
      })() as unknown as NodeJS.ReadableStream,
      accept: ['pdf'],
    });

  it('answers a null agreement before one is uploaded', async () => {
    const res = await get(danaToken, '/documents');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ agreement: null });
  });

  it('hands out the own agreement as a signed URL that downloads for an hour', async () => {
    const file = await put('marketing_agreements', dana.id, 'Dana Agreement.pdf');
    await t.db.update(users).set({ marketingAgreementUrl: file.key }).where(eq(users.id, dana.id));
    const res = await get(danaToken, '/documents');
    const { agreement } = res.json();
    expect(agreement.file_name).toBe(file.filename);
    expect(agreement.url).toMatch(/^\/files\/marketing_agreements\/.+sig=/);
    const ttl = Date.parse(agreement.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3590_000);
    expect(ttl).toBeLessThanOrEqual(3600_000);
    const download = await t.app.inject(agreement.url);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdfFile)).toBe(true);
    // Another publisher sees only their own (none), never Dana's.
    expect((await get(bobToken, '/documents')).json()).toEqual({ agreement: null });
    const overview = (await get(danaToken, '/overview')).json();
    expect(overview.recent_activity.map((a: { type: string }) => a.type)).toContain('agreement');
  });

  it('lists IOs of own approved applications only, each with a signed URL', async () => {
    const approved = await buildOffer(t.db, { title: 'Approved With IO' });
    const approvedNoIo = await buildOffer(t.db);
    const pending = await buildOffer(t.db);
    const io = await put('io_documents', dana.id, 'io.pdf');
    const [withIo] = await t.db
      .insert(offerApplications)
      .values([
        { offerId: approved.id, publisherId: dana.id, status: 'approved', ioDocumentUrl: io.key },
        { offerId: approvedNoIo.id, publisherId: dana.id, status: 'approved' },
        { offerId: pending.id, publisherId: dana.id, status: 'pending', ioDocumentUrl: io.key },
      ])
      .returning();
    const res = await get(danaToken, '/ios');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      application_id: withIo!.id,
      offer_id: approved.id,
      offer_title: 'Approved With IO',
      status: 'approved',
      file: { file_name: 'io.pdf' },
    });
    const download = await t.app.inject(body.items[0].file.url);
    expect(download.statusCode).toBe(200);
    // Another publisher's list never contains Dana's IO.
    const bobs = (await get(bobToken, '/ios')).json();
    expect(bobs).toMatchObject({ items: [], total: 0 });
    expect(JSON.stringify(bobs)).not.toContain(io.key);
  });
});
