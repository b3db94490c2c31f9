import { eq } from 'drizzle-orm';
import { createTransport } from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, offerApplications, users } from '../../db/schema.ts';
import { startTestSmtpServer } from '../../mail/test-smtp.ts';
import { processOutboxOnce } from '../../mail/worker.ts';
import { readStored } from '../../storage/storage.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { sha256Hex } from './seal.ts';
import { DEFAULT_TEMPLATES } from './templates.ts';

const t = fileAdminTest();
let pub: TestUser;
let token: string;
let applicationId: string;

/** POST /admin/documents as a multipart form of fields only (no file). */
async function sendFields(fields: Record<string, string>) {
  return t.call('POST', '/documents', {
    multipart: Object.entries(fields).map(([field, value]) => ({ field, value })),
  });
}

const putTemplates = (body: object) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v1/admin/document-templates',
    headers: { authorization: `Bearer ${t.adminToken}` },
    payload: body,
  });

const asPublisher = (method: 'GET' | 'POST', url: string, body?: object) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'TemplateTest/1.0' },
    ...(body && { payload: body }),
  });

beforeAll(async () => {
  pub = await buildPublisher(t.db, { name: 'Carol Caller' });
  await t.db
    .update(users)
    .set({ businessLegalName: 'Carol Calls LLC' })
    .where(eq(users.id, pub.id));
  token = await t.tokenOf(pub);
  const offer = await buildOffer(t.db, { title: 'Medicare Leads', payout: '42.50' });
  const [app] = await t.db
    .insert(offerApplications)
    .values({ offerId: offer.id, publisherId: pub.id, status: 'approved' })
    .returning();
  applicationId = app!.id;
});

describe('document templates', () => {
  it('answers the built-in texts until an admin saves theirs', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/document-templates',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_TEMPLATES);
  });

  it('refuses an unknown placeholder with a clear 400', async () => {
    const res = await putTemplates({
      agreement: 'Agreement with {{publisher.nickname}} made on {{date}}.',
      io: DEFAULT_TEMPLATES.io,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('Unknown placeholder {{publisher.nickname}}');
  });

  it('saves the texts (audited) and sends an IO with the fields filled in', async () => {
    const io =
      'IO for {{ offer.title }}\n\nPublisher {{publisher.company}} ({{publisher.name}}, ' +
      '{{publisher.email}}) runs {{offer.title}} at {{offer.payout}} a call from {{date}}.';
    const saved = await putTemplates({ agreement: DEFAULT_TEMPLATES.agreement, io });
    expect(saved.statusCode, saved.body).toBe(200);
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'settings.document_templates'));
    expect(audit).toHaveLength(1);

    const res = await sendFields({
      publisher_id: pub.id,
      kind: 'io',
      application_id: applicationId,
      template: 'io',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const doc = (await asPublisher('GET', `/publisher/documents/${id}`)).json();
    expect(doc.title).toBe('IO for Medicare Leads');
    const file = await t.app.inject({ method: 'GET', url: doc.file_url });
    expect(sha256Hex(file.rawPayload)).toBe(doc.document_sha256);
    const text = (await pdfText(file.rawPayload)).join('\n');
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain('IO for Medicare Leads');
    expect(text.replace(/\n/g, ' ')).toContain(
      `Publisher Carol Calls LLC (Carol Caller, ${pub.email}) runs Medicare Leads at $42.50 a call from ${today}.`,
    );
    expect(text).not.toContain('{{');

    // Signed exactly like an uploaded PDF: the sealed copy checks.
    const signed = await asPublisher('POST', `/publisher/documents/${id}/sign`, {
      full_name: 'Carol Q. Caller',
      consent: true,
      document_sha256: doc.document_sha256,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().status).toBe('signed');
    const pdf = await asPublisher('GET', `/documents/${id}/signed.pdf`);
    expect(pdf.statusCode).toBe(200);
    const check = await callAs(t.app, t.adminToken, 'POST', '/api/v1/documents/verify', {
      multipart: [
        {
          field: 'file',
          filename: 'copy.pdf',
          content: pdf.rawPayload,
          contentType: 'application/pdf',
        },
      ],
    });
    // The "signed" mail carries the sealed PDF, sent from storage over SMTP.
    const smtp = await startTestSmtpServer();
    try {
      const counts = await processOutboxOnce({
        db: t.db,
        transport: createTransport({ url: smtp.url, ignoreTLS: true }),
        from: 'Portal <no-reply@portal.test>',
        readAttachment: (key) => readStored(t.app.storage, key),
      });
      expect(counts.failed).toBe(0);
      const mail = smtp.received.find((m) => m.subject === 'Signed: IO for Medicare Leads');
      expect(mail?.attachments).toEqual([
        {
          filename: 'IO for Medicare Leads (signed).pdf',
          contentType: 'application/pdf',
          content: pdf.rawPayload,
        },
      ]);
    } finally {
      await smtp.close();
    }
    expect(check.json()).toMatchObject({
      valid: true,
      document_id: id,
      signer: `Carol Q. Caller <${pub.email}>`,
    });
  });

  it('refuses an offer field in an agreement (no offer) and a file with a template', async () => {
    await putTemplates({
      agreement: 'Agreement for {{offer.title}} with {{publisher.name}}.',
      io: DEFAULT_TEMPLATES.io,
    });
    const res = await sendFields({
      publisher_id: pub.id,
      kind: 'agreement',
      template: 'agreement',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain('{{offer.title}}, which needs an offer');
    const none = await sendFields({ publisher_id: pub.id, kind: 'agreement' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Please choose a PDF, or send from a template.');
  });
});
