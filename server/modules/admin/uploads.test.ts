import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { LOGO_MAX_BYTES } from '../../../contract/admin.ts';
import { auditLog, settings, users } from '../../db/schema.ts';
import { writeOrRemove } from '../../storage/upload.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildBuyer, buildPublisher } from '../../test/factories.ts';
import {
  docFile,
  docxFile,
  jpgFile,
  pdfFile,
  pngFile,
  samePicture,
  svgFile,
  unsafeSvgFiles,
} from '../../test/fixtures.ts';

const t = fileAdminTest();

async function put(path: string, filename: string, data: Buffer, field = 'file') {
  return t.call('PUT', path, { multipart: [{ field, filename, content: data }] });
}

const agreementKey = async (id: string) =>
  (await t.db.select().from(users).where(eq(users.id, id)))[0]!.marketingAgreementUrl;

describe('PUT /admin/publishers/:id/agreement', () => {
  it('stores a PDF agreement, sets it on the publisher, audits it and links it', async () => {
    const p = await buildPublisher(t.db);
    const res = await put(`/publishers/${p.id}/agreement`, 'Agreement 2024.pdf', pdfFile);
    expect(res.statusCode).toBe(200);
    expect(res.json().publisher).toMatchObject({ id: p.id, has_agreement: true });
    expect(res.json().agreement.name).toBe('Agreement_2024.pdf');
    const key = await agreementKey(p.id);
    expect(key).toMatch(new RegExp(`^marketing_agreements/${p.id}/`));
    const file = await t.app.inject({ url: res.json().agreement.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdfFile)).toBe(true);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, p.id));
    expect(audit).toMatchObject({
      action: 'publisher.agreement',
      before: { marketing_agreement_url: null },
      after: { marketing_agreement_url: key },
    });
    const detail = await t.call('GET', `/publishers/${p.id}`);
    expect(detail.json().agreement.name).toBe('Agreement_2024.pdf');
  });

  it('accepts doc and docx, and deletes the replaced file', async () => {
    const p = await buildPublisher(t.db);
    const first = await put(`/publishers/${p.id}/agreement`, 'a.doc', docFile);
    expect(first.statusCode).toBe(200);
    const oldKey = await agreementKey(p.id);
    const second = await put(`/publishers/${p.id}/agreement`, 'a.docx', docxFile);
    expect(second.statusCode).toBe(200);
    expect(await agreementKey(p.id)).not.toBe(oldKey);
    expect(await t.app.storage.stat(oldKey!)).toBeNull();
    expect(await t.app.storage.stat((await agreementKey(p.id))!)).not.toBeNull();
  });

  it('refuses other types (415), no file (400), a wrong field (400), an unknown publisher (404)', async () => {
    const p = await buildPublisher(t.db);
    const png = await put(`/publishers/${p.id}/agreement`, 'a.png', pngFile);
    expect(png.statusCode).toBe(415);
    expect(png.json().error.message).toContain('PDF, DOC or DOCX');
    const fake = await put(`/publishers/${p.id}/agreement`, 'a.pdf', pngFile);
    expect(fake.statusCode).toBe(415);
    const none = await t.call('PUT', `/publishers/${p.id}/agreement`, { multipart: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('Please choose a file for file.');
    const wrong = await put(`/publishers/${p.id}/agreement`, 'a.pdf', pdfFile, 'document');
    expect(wrong.statusCode).toBe(400);
    expect(await agreementKey(p.id)).toBeNull();
    const buyer = await buildBuyer(t.db);
    expect((await put(`/publishers/${buyer.id}/agreement`, 'a.pdf', pdfFile)).statusCode).toBe(404);
  });
});

describe('PUT /admin/settings/logo', () => {
  it('stores a PNG logo, sets logo_url to its public URL everywhere, deletes the old one', async () => {
    const first = await put('/settings/logo', 'logo.png', pngFile);
    expect(first.statusCode).toBe(200);
    const firstUrl = first.json().logo_url as string;
    expect(firstUrl).toMatch(/^\/files\/public\/logos\/settings\/.+-logo\.png$/);
    const served = await t.app.inject({ url: firstUrl });
    expect(served.statusCode).toBe(200);
    expect(await samePicture(served.rawPayload, pngFile)).toBe(true);
    const pub = await t.app.inject({ url: '/api/v1/public/settings' });
    expect(pub.json().logo_url).toBe(firstUrl);
    const [row] = await t.db.select().from(settings);
    expect(row!.logoUrl).toMatch(/^logos\/settings\//);

    const second = await put('/settings/logo', 'logo.jpg', jpgFile);
    expect(second.statusCode).toBe(200);
    expect(second.json().logo_url).not.toBe(firstUrl);
    expect((await t.app.inject({ url: firstUrl })).statusCode).toBe(404);
    const audits = await t.db.select().from(auditLog).where(eq(auditLog.action, 'settings.logo'));
    expect(audits).toHaveLength(2);
    expect(audits[1]!.before).toEqual({ logo_url: row!.logoUrl });
  });

  it('accepts a plain SVG and serves it so it cannot run script', async () => {
    const res = await put('/settings/logo', 'logo.svg', svgFile);
    expect(res.statusCode).toBe(200);
    const served = await t.app.inject({ url: res.json().logo_url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain('image/svg+xml');
    expect(String(served.headers['content-security-policy'])).toContain('sandbox');
  });

  it('refuses SVGs that could run script, keeping the current logo', async () => {
    const before = (await t.db.select().from(settings))[0]!.logoUrl;
    for (const [name, data] of Object.entries(unsafeSvgFiles)) {
      const res = await put('/settings/logo', `${name}.svg`, data);
      expect(res.statusCode, name).toBe(415);
    }
    expect((await t.db.select().from(settings))[0]!.logoUrl).toBe(before);
  });

  it('enforces 5 MB on the server (413), the types (415) and a file being chosen', async () => {
    const big = Buffer.concat([pngFile, Buffer.alloc(LOGO_MAX_BYTES)]);
    const tooBig = await put('/settings/logo', 'big.png', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.message).toBe('The file is larger than 5 MB.');
    const pdf = await put('/settings/logo', 'logo.pdf', pdfFile);
    expect(pdf.statusCode).toBe(415);
    expect(pdf.json().error.message).toContain('PNG, JPG, JPEG or SVG');
    const none = await t.call('PUT', '/settings/logo', { multipart: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe('No file selected');
  });
});

describe('a failed database write after an upload', () => {
  it('deletes the stored file and rethrows; a committed write deletes the replaced file', async () => {
    const stored = await t.app.storage.putFile({
      bucket: 'io_documents',
      owner: t.admin.id,
      filename: 'x.pdf',
      stream: Readable.from(pdfFile),
      accept: ['pdf'],
    });
    const log = { warn: () => {} };
    await expect(
      writeOrRemove({
        storage: t.app.storage,
        keys: [stored.key],
        log,
        write: async () => {
          throw new Error('database down');
        },
      }),
    ).rejects.toThrow('database down');
    expect(await t.app.storage.stat(stored.key)).toBeNull();

    const old = await t.app.storage.putFile({
      bucket: 'io_documents',
      owner: t.admin.id,
      filename: 'old.pdf',
      stream: Readable.from(pdfFile),
      accept: ['pdf'],
    });
    const fresh = await t.app.storage.putFile({
      bucket: 'io_documents',
      owner: t.admin.id,
      filename: 'new.pdf',
      stream: Readable.from(pdfFile),
      accept: ['pdf'],
    });
    const out = await writeOrRemove({
      storage: t.app.storage,
      keys: [fresh.key],
      log,
      write: async () => ({ result: 'ok', replacedKeys: [old.key] }),
    });
    expect(out).toBe('ok');
    expect(await t.app.storage.stat(old.key)).toBeNull();
    expect(await t.app.storage.stat(fresh.key)).not.toBeNull();
  });
});
