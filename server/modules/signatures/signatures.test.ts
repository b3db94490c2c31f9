import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, like } from 'drizzle-orm';
import forge from 'node-forge';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SignatureDocumentDetail } from '../../../contract/documents.ts';
import { auditLog, signatureDocuments } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildPublisher, type TestUser } from '../../test/factories.ts';
import { mailsTo } from '../../test/gotrue.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { listDocuments } from './documents.service.ts';
import { checkSeal, loadSeal, SEAL_CERT_FILE, sealPdf, sha256Hex } from './seal.ts';
import { sendExpiryReminders } from './sign.service.ts';

const t = fileAdminTest();
let pubA: TestUser;
let pubB: TestUser;
let tokenA: string;
let tokenB: string;

const DAY = 86_400_000;

async function samplePdf(text: string): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 50, y: 780, size: 12, font });
  return Buffer.from(await pdf.save());
}

async function send(fields: Record<string, string>, file: Buffer, name = 'Agreement.pdf') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), name);
  const res = new Response(form);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/documents',
    headers: {
      authorization: `Bearer ${t.adminToken}`,
      'content-type': res.headers.get('content-type')!,
    },
    payload: Buffer.from(await res.arrayBuffer()),
  });
}

const asPublisher = (token: string, method: 'GET' | 'POST', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'SignTest/1.0' },
    ...(body !== undefined && { payload: body as object }),
    remoteAddress: '198.51.100.7',
  });

async function verify(data: Buffer, token = t.adminToken) {
  return callAs(t.app, token, 'POST', '/api/v1/documents/verify', {
    multipart: [
      { field: 'file', filename: 'copy.pdf', content: data, contentType: 'application/pdf' },
    ],
  });
}

beforeAll(async () => {
  pubA = await buildPublisher(t.db, { name: 'Alice Publisher' });
  pubB = await buildPublisher(t.db, { name: 'Bob Publisher' });
  tokenA = await t.tokenOf(pubA);
  tokenB = await t.tokenOf(pubB);
});

describe('click-to-sign', () => {
  let original: Buffer;
  let docId: string;
  let signedPdf: Buffer;

  it('sends an agreement: the publisher is mailed and it shows in their list', async () => {
    original = await samplePdf('Marketing agreement v1');
    const res = await send({ publisher_id: pubA.id, kind: 'agreement' }, original);
    expect(res.statusCode, res.body).toBe(201);
    docId = res.json().id;
    const mails = await mailsTo(t.db, pubA.email);
    expect(mails.map((m) => m.subject)).toContain('Please sign: Agreement');
    const list = await asPublisher(tokenA, 'GET', '/publisher/signatures');
    expect(list.json().items).toMatchObject([
      { id: docId, status: 'sent', can_sign: true, document_sha256: sha256Hex(original) },
    ]);
  });

  it('refuses a bad form with a sentence and stores nothing', async () => {
    const res = await send({ publisher_id: pubA.id, kind: 'contract' }, original);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe('Kind must be agreement or io.');
    const io = await send({ publisher_id: pubA.id, kind: 'io' }, original);
    expect(io.json().error.message).toBe('Choose the application this IO is for.');
  });

  it('shows the document to its publisher only (another publisher gets 404)', async () => {
    expect((await asPublisher(tokenB, 'GET', `/publisher/documents/${docId}`)).statusCode).toBe(
      404,
    );
    const res = await asPublisher(tokenA, 'GET', `/publisher/documents/${docId}`);
    expect(res.statusCode).toBe(200);
    const doc = res.json() as SignatureDocumentDetail;
    expect(doc.status).toBe('viewed');
    expect(doc.events.map((e) => e.type)).toEqual(['sent', 'viewed']);
    expect(doc.events[1]).toMatchObject({ ip: '198.51.100.7', user_agent: 'SignTest/1.0' });
    // The viewer's URL serves exactly the bytes whose hash is shown.
    const file = await t.app.inject({ method: 'GET', url: doc.file_url });
    expect(sha256Hex(file.rawPayload)).toBe(doc.document_sha256);
  });

  it('lets only the owner sign, with consent and a name', async () => {
    const body = { full_name: 'Alice Q. Publisher', consent: true };
    const other = await asPublisher(tokenB, 'POST', `/publisher/documents/${docId}/sign`, body);
    expect(other.statusCode).toBe(404);
    const noConsent = await asPublisher(tokenA, 'POST', `/publisher/documents/${docId}/sign`, {
      full_name: 'Alice',
      consent: false,
    });
    expect(noConsent.statusCode).toBe(400);
    const stale = await asPublisher(tokenA, 'POST', `/publisher/documents/${docId}/sign`, {
      ...body,
      document_sha256: 'a'.repeat(64),
    });
    expect(stale.statusCode).toBe(409);
    const res = await asPublisher(tokenA, 'POST', `/publisher/documents/${docId}/sign`, body);
    expect(res.statusCode, res.body).toBe(200);
    const doc = res.json() as SignatureDocumentDetail;
    expect(doc.status).toBe('signed');
    expect(doc.signature).toMatchObject({
      full_name: 'Alice Q. Publisher',
      email: pubA.email,
      ip: '198.51.100.7',
      user_agent: 'SignTest/1.0',
      shown_sha256: sha256Hex(original),
    });
    expect(doc.signature!.consent_text).toMatch(/sign this document electronically/);
    const again = await asPublisher(tokenA, 'POST', `/publisher/documents/${docId}/sign`, body);
    expect(again.statusCode).toBe(409);
    const mails = await mailsTo(t.db, pubA.email);
    expect(mails.map((m) => m.subject)).toContain('Signed: Agreement');
  });

  it('serves the signed PDF to the admin and its publisher, 404 to another', async () => {
    const b = await asPublisher(tokenB, 'GET', `/documents/${docId}/signed.pdf`);
    expect(b.statusCode).toBe(404);
    const admin = await asPublisher(t.adminToken, 'GET', `/documents/${docId}/signed.pdf`);
    expect(admin.statusCode).toBe(200);
    const res = await asPublisher(tokenA, 'GET', `/documents/${docId}/signed.pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    signedPdf = res.rawPayload;
    const detail = (await t.call('GET', `/documents/${docId}`)).json() as SignatureDocumentDetail;
    expect(sha256Hex(signedPdf)).toBe(detail.signature!.sealed_sha256);
  });

  it('seals the hash of what was shown: the original pages, a signature page, a certificate', async () => {
    const pages = await pdfText(signedPdf);
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain('Marketing agreement v1');
    const sig = pages[1]!.replace(/\n/g, '');
    expect(sig).toContain('Alice Q. Publisher');
    expect(sig).toContain(sha256Hex(original));
    expect(sig).toContain('198.51.100.7');
    const cert = pages[2]!.replace(/\n/g, ' ');
    expect(cert).toMatch(/Sent for signature.*Opened by the signer.*Signed/);
  });

  it('carries a CMS that node-forge parses and whose signature checks with the certificate', () => {
    const at = signedPdf.lastIndexOf('/ByteRange [');
    const [a, b, c, d] = /\[(\d+) (\d+) (\d+) (\d+)\]/
      .exec(signedPdf.subarray(at, at + 80).toString('latin1'))!
      .slice(1)
      .map(Number) as [number, number, number, number];
    expect(a).toBe(0);
    expect(c + d).toBe(signedPdf.length);
    expect(signedPdf.subarray(0, 2000).toString('latin1')).toMatch(/%PDF-/);
    expect(signedPdf.toString('latin1')).toContain('/SubFilter /ETSI.CAdES.detached');
    const hex = signedPdf.subarray(b + 1, c - 1).toString('latin1');
    const der = Buffer.from(hex, 'hex');
    const p7 = forge.pkcs7.messageFromAsn1(
      (forge.asn1.fromDer as unknown as (d: string, o: object) => forge.asn1.Asn1)(
        der.toString('binary'),
        { parseAllBytes: false },
      ),
    ) as forge.pkcs7.PkcsSignedData & {
      rawCapture: { authenticatedAttributes: forge.asn1.Asn1[]; signature: string };
    };
    const cert = p7.certificates[0]!;
    const ours = forge.pki.certificateFromPem(loadSeal(t.config.dataDir, 'x').certPem);
    expect(forge.pki.certificateToPem(cert)).toBe(forge.pki.certificateToPem(ours));
    const set = forge.asn1.create(
      forge.asn1.Class.UNIVERSAL,
      forge.asn1.Type.SET,
      true,
      p7.rawCapture.authenticatedAttributes,
    );
    const md = forge.md.sha256.create().update(forge.asn1.toDer(set).getBytes());
    const key = cert.publicKey as forge.pki.rsa.PublicKey;
    expect(key.verify(md.digest().bytes(), p7.rawCapture.signature)).toBe(true);
    // PAdES B-B: the signed attributes name the signing certificate (ESS signing-certificate-v2).
    const types = p7.rawCapture.authenticatedAttributes.map((a) =>
      forge.asn1.derToOid((a.value as forge.asn1.Asn1[])[0]!.value as string),
    );
    expect(types).toContain('1.2.840.113549.1.9.16.2.47');

    // An independent validator: OpenSSL checks the detached CMS over the byte range.
    const dir = mkdtempSync(path.join(tmpdir(), 'cms-'));
    try {
      const content = Buffer.concat([signedPdf.subarray(a, a + b), signedPdf.subarray(c, c + d)]);
      writeFileSync(path.join(dir, 'content.bin'), content);
      // The CMS as it is in the file, without the hole's zero padding (its DER length).
      const lenBytes = der[1]! & 0x7f;
      const len = [...der.subarray(2, 2 + lenBytes)].reduce((n, x) => n * 256 + x, 0);
      writeFileSync(path.join(dir, 'sig.der'), der.subarray(0, 2 + lenBytes + len));
      if (!existsSync('/usr/bin/openssl')) return;
      const opensslVerify = () =>
        execFileSync(
          'openssl',
          [
            ...['cms', '-verify', '-binary', '-inform', 'DER', '-purpose', 'any'],
            ...['-in', path.join(dir, 'sig.der'), '-content', path.join(dir, 'content.bin')],
            ...['-CAfile', path.join(t.config.dataDir, SEAL_CERT_FILE), '-out', '/dev/null'],
          ],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
      expect(opensslVerify).not.toThrow();
      // And a changed byte fails it.
      content[100] = content[100]! ^ 1;
      writeFileSync(path.join(dir, 'content.bin'), content);
      expect(opensslVerify).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('verifies the copy, and refuses a copy with one byte changed or bytes added', async () => {
    const ok = await verify(signedPdf);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ valid: true, document_id: docId });
    const changed = Buffer.from(signedPdf);
    const i = changed.indexOf('Marketing');
    changed[i + 1] = changed[i + 1]! ^ 0x01;
    const bad = await verify(changed);
    expect(bad.json()).toMatchObject({ valid: false, document_id: null });
    const grown = Buffer.concat([signedPdf, Buffer.from('\n% appended\n')]);
    expect((await verify(grown)).json().valid).toBe(false);
    const plain = await verify(original);
    expect(plain.json()).toMatchObject({ valid: false });
    expect((await verify(signedPdf, tokenA)).statusCode).toBe(403);
  });

  it('refuses a PDF sealed by another certificate', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'other-seal-'));
    try {
      const other = loadSeal(dir, 'someone else');
      const pdf = await PDFDocument.load(original);
      const sealed = await sealPdf(pdf, other, {
        reason: 'x',
        name: 'x',
        contactInfo: 'x',
        location: 'x',
        at: new Date(),
      });
      expect(checkSeal(sealed, new Set([other.certSha256])).ok).toBe(true);
      const res = await verify(sealed);
      expect(res.json()).toMatchObject({
        valid: false,
        message: 'This PDF is signed, but not by this portal.',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes each step into the publisher History (audit log)', async () => {
    const rows = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, pubA.id), like(auditLog.action, 'document.%')));
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['document.sent', 'document.viewed', 'document.signed']),
    );
  });

  it('makes a new version that must be signed again', async () => {
    const v2 = await samplePdf('Marketing agreement v2');
    const res = await send({ publisher_id: pubA.id, kind: 'agreement', title: 'Agreement' }, v2);
    expect(res.statusCode).toBe(201);
    const v2Id = res.json().id;
    const list = (await asPublisher(tokenA, 'GET', '/publisher/signatures')).json();
    expect(list.items).toMatchObject([{ id: v2Id, version: 2, status: 'sent', can_sign: true }]);
    const old = (await t.call('GET', `/documents/${docId}`)).json();
    expect(old.status).toBe('superseded');
    const body = { full_name: 'Alice Q. Publisher', consent: true };
    const oldSign = await asPublisher(tokenA, 'POST', `/publisher/documents/${docId}/sign`, body);
    expect(oldSign.statusCode).toBe(409);
    const signed = await asPublisher(tokenA, 'POST', `/publisher/documents/${v2Id}/sign`, body);
    expect(signed.json().signature.shown_sha256).toBe(sha256Hex(v2));
    // The old version's sealed copy still verifies: it was signed, only replaced since.
    expect((await verify(signedPdf)).json().valid).toBe(true);
  });
});

describe('expiry and reminders', () => {
  it('expires an agreement after the set months and reminds 30, 7 and 1 days before', async () => {
    const put = await t.call('PUT', '/document-settings', { body: { resign_months: 12 } });
    expect(put.json()).toEqual({ resign_months: 12 });
    const file = await samplePdf('Expiring agreement');
    const id = (await send({ publisher_id: pubB.id, kind: 'agreement' }, file)).json().id;
    const body = { full_name: 'Bob Publisher', consent: true };
    const signed = (
      await asPublisher(tokenB, 'POST', `/publisher/documents/${id}/sign`, body)
    ).json();
    const expires = new Date(signed.expires_at).getTime();
    const signedAt = new Date(signed.signed_at).getTime();
    expect(expires - signedAt).toBeGreaterThan(364 * DAY);
    expect(expires - signedAt).toBeLessThan(367 * DAY);

    const run = (ms: number) =>
      sendExpiryReminders({ db: t.db, publicUrl: 'http://x', now: new Date(expires - ms) });
    expect(await run(40 * DAY)).toBe(0);
    expect(await run(29 * DAY)).toBe(1);
    expect(await run(28 * DAY)).toBe(0); // once per window
    expect(await run(6 * DAY)).toBe(1);
    expect(await run(0.5 * DAY)).toBe(1);
    expect(await run(0.4 * DAY)).toBe(0);
    const mails = await mailsTo(t.db, pubB.email);
    expect(mails.map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        'Your signature on Agreement expires in 29 days',
        'Your signature on Agreement expires in 6 days',
        'Your signature on Agreement expires in 1 day',
      ]),
    );

    // Past the expiry: shown as expired, and it may be signed again (which renews it).
    const later = new Date(expires + DAY);
    const expired = await listDocuments({
      db: t.db,
      storage: t.app.storage,
      query: { status: 'expired', sort: 'sent_at', order: 'desc', page: 1, page_size: 25 },
      now: later,
    });
    expect(expired.items.map((d) => [d.id, d.status, d.can_sign])).toEqual([[id, 'expired', true]]);
    // Through the API: its expiry moved into the past.
    await t.db
      .update(signatureDocuments)
      .set({ expiresAt: new Date(Date.now() - DAY) })
      .where(eq(signatureDocuments.id, id));
    const list = await t.call('GET', '/documents', { query: { status: 'expired' } });
    expect(list.json().items.map((d: { id: string }) => d.id)).toEqual([id]);
    const again = await asPublisher(tokenB, 'POST', `/publisher/documents/${id}/sign`, body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().status).toBe('signed');
  });

  it('sends bulk reminders for what still needs a signature and skips the rest', async () => {
    const file = await samplePdf('Unsigned agreement');
    const unsigned = (
      await send({ publisher_id: pubB.id, kind: 'agreement', title: 'NDA' }, file)
    ).json().id;
    const [signed] = await t.db
      .select({ id: signatureDocuments.id })
      .from(signatureDocuments)
      .where(
        and(eq(signatureDocuments.publisherId, pubA.id), eq(signatureDocuments.status, 'signed')),
      );
    const res = await t.call('POST', '/documents/remind', {
      body: { ids: [unsigned, signed!.id] },
    });
    expect(res.json()).toEqual({ reminded: 1, skipped: 1 });
    const mails = await mailsTo(t.db, pubB.email);
    expect(mails.map((m) => m.subject)).toContain('Reminder: please sign NDA');
    const sent = await t.call('GET', '/documents', { query: { status: 'sent' } });
    expect(sent.json().items[0]).toMatchObject({ id: unsigned, publisher_email: pubB.email });
    expect(sent.json().items[0].last_reminded_at).not.toBeNull();
  });
});

describe('seal', () => {
  it('keeps one certificate in the data folder across loads', () => {
    const a = loadSeal(t.config.dataDir, 'x');
    expect(existsSync(path.join(t.config.dataDir, SEAL_CERT_FILE))).toBe(true);
    expect(loadSeal(t.config.dataDir, 'x').certSha256).toBe(a.certSha256);
    expect(a.certSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(createHash('sha256').update('x').digest('hex')).toBe(sha256Hex('x'));
  });
});
