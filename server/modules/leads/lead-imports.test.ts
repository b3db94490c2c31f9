import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LeadImport } from '../../../contract/lead-actions.ts';
import { auditLog, integrationExternalIds, integrations, leads } from '../../db/schema.ts';
import { fileAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';

/**
 * Issue 13, item 8: CSV import through the admin API: upload, column mapping, a check (dry run)
 * with row errors and what would be created/updated, the import in one transaction, idempotent
 * re-import, and the refusal of bad files.
 */

const t = fileAdminTest();
let pub: TestUser;
let pub2: TestUser;
let offer: Awaited<ReturnType<typeof buildOffer>>;
let offer2: Awaited<ReturnType<typeof buildOffer>>;
let ringbaId: string;

beforeAll(async () => {
  pub = await buildPublisher(t.db, { name: 'Import Ivy', email: 'ivy@import.example' });
  pub2 = await buildPublisher(t.db, { name: 'Import Ian' });
  offer = await buildOffer(t.db, { title: 'Home Warranty', payout: '18.00' });
  offer2 = await buildOffer(t.db, { title: 'Medicare', payout: '42.00' });
  const made = await t.call('POST', '/integrations', { body: { name: 'Ringba production' } });
  ringbaId = made.json().integration.id;
  await t.db.insert(integrationExternalIds).values([
    { integrationId: ringbaId, kind: 'publisher', externalId: 'PUB-77', publisherId: pub2.id },
    { integrationId: ringbaId, kind: 'offer', externalId: 'CA-MEDI', offerId: offer2.id },
  ]);
});

async function upload(csv: string | Buffer, filename = 'calls.csv') {
  const content = Buffer.isBuffer(csv) ? csv : Buffer.from(csv);
  return t.call('POST', '/lead-imports', {
    multipart: [{ field: 'file', filename, content, contentType: 'text/csv' }],
  });
}

/** Polls the import until its check or import has finished. */
async function settled(id: string): Promise<LeadImport> {
  for (let i = 0; i < 400; i++) {
    const res = await t.call('GET', `/lead-imports/${id}`);
    const job = res.json() as LeadImport;
    if (job.status !== 'checking' && job.status !== 'importing') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the import did not finish');
}

/** Starts the import's check or the import itself (202) and waits until it has finished. */
async function runStep(id: string, step: 'check' | 'import', body?: object) {
  const res = await t.call('POST', `/lead-imports/${id}/${step}`, body ? { body } : {});
  expect(res.statusCode, res.body).toBe(202);
  return settled(id);
}

/** The sample's main columns: the upload must suggest at least this mapping. */
const ringbaMapping = {
  external_call_id: 'Call ID',
  publisher: 'Publisher',
  offer: 'Campaign',
  timestamp: 'Call Date',
  duration_seconds: 'Duration',
  payout: 'Payout',
  status: 'Status',
  caller: 'Caller',
};
const mapping = { ...ringbaMapping, revenue: 'Revenue', state: 'State', zip: 'Zip' };

const header =
  'Call ID,Publisher,Campaign,Call Date,Duration,Payout,Revenue,Status,Caller,State,Zip';

async function checkAndImport(csv: string, integrationId?: string) {
  const up = await upload(csv);
  expect(up.statusCode, up.body).toBe(201);
  const id = up.json().id as string;
  const checked = await runStep(id, 'check', {
    mapping,
    ...(integrationId ? { integration_id: integrationId } : {}),
  });
  return { checked, imported: await runStep(id, 'import') };
}

describe('CSV import', () => {
  it('uploads, suggests a mapping, checks without writing, imports in one go, and re-imports nothing', async () => {
    const csv = [
      header,
      `RG-1,${pub.id},${offer.id},2026-11-20 09:15:00,95,,45.50,,+1 (555) 201-0001,tx,73301`,
      `RG-2,IVY@import.example,${offer.id},11/20/2026 2:05 PM,1:40,$20.00,,approved,,,`,
      `RG-3,PUB-77,CA-MEDI,2026-11-21T10:00:00Z,300,,,rejected,,CA,`,
      // Row errors: unknown publisher, bad date, bad money, repeated call id, empty offer.
      `RG-4,nobody@example.com,${offer.id},2026-11-20 10:00,60,,,,,,`,
      `RG-5,${pub.id},${offer.id},yesterday,60,,,,,,`,
      `RG-6,${pub.id},${offer.id},2026-11-20 10:00,60,twelve,,,,,`,
      `RG-1,${pub.id},${offer.id},2026-11-20 10:00,60,,,,,,`,
      `RG-7,${pub.id},,2026-11-20 10:00,60,,,,,,`,
    ].join('\r\n');
    const up = await upload(`${csv}\r\n`);
    expect(up.statusCode).toBe(201);
    const made = up.json() as LeadImport;
    expect(made).toMatchObject({
      filename: 'calls.csv',
      row_count: 8,
      status: 'uploaded',
      header: header.split(','),
      suggested_mapping: ringbaMapping,
    });
    expect(made.sample[0]![0]).toBe('RG-1');

    const checked = await runStep(made.id, 'check', { mapping, integration_id: ringbaId });
    expect(checked).toMatchObject({
      status: 'checked',
      would_create: 3,
      would_update: 0,
      unchanged: 0,
      error_rows: 5,
      integration_name: 'Ringba production',
    });
    expect(checked.errors).toEqual([
      {
        line: 5,
        column: 'Publisher',
        message:
          'No publisher matches "nobody@example.com" (our id, e-mail, name, or an external id attached on the integration).',
      },
      {
        line: 6,
        column: 'Call Date',
        message:
          '"yesterday" is not a date and time (use 2026-11-20 14:05:00, 11/20/2026 2:05 PM or an ISO time).',
      },
      { line: 7, column: 'Payout', message: '"twelve" is not an amount of money (e.g. 25.50).' },
      { line: 8, column: 'Call ID', message: 'The call id "RG-1" is on line 2 already.' },
      { line: 9, column: 'Campaign', message: 'The offer is empty.' },
    ]);
    // The check wrote nothing.
    expect(await t.db.select().from(leads).where(eq(leads.integrationId, ringbaId))).toEqual([]);

    const done = await runStep(made.id, 'import');
    expect(done).toMatchObject({
      status: 'imported',
      created: 3,
      updated: 0,
      unchanged: 0,
      error_rows: 5,
    });
    const rows = await t.db.select().from(leads).where(eq(leads.integrationId, ringbaId));
    const byCall = Object.fromEntries(rows.map((r) => [r.externalCallId, r]));
    expect(byCall['RG-1']).toMatchObject({
      publisherId: pub.id,
      offerId: offer.id,
      payout: '18.00', // the offer's payout when the file has none
      revenue: '45.50',
      status: 'pending',
      durationSeconds: 95,
      callDuration: 2,
      caller: '+1 (555) 201-0001',
      state: 'TX',
      zip: '73301',
    });
    // A local time is read in the network's time zone (UTC by default).
    expect(byCall['RG-1']!.timestamp.toISOString()).toBe('2026-11-20T09:15:00.000Z');
    expect(byCall['RG-2']).toMatchObject({
      publisherId: pub.id,
      payout: '20.00',
      status: 'approved',
      statusReason: 'Imported from a CSV file.',
      durationSeconds: 100,
    });
    expect(byCall['RG-2']!.timestamp.toISOString()).toBe('2026-11-20T14:05:00.000Z');
    expect(byCall['RG-3']).toMatchObject({
      publisherId: pub2.id,
      offerId: offer2.id,
      payout: '42.00',
      status: 'rejected',
    });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'lead.import'), eq(auditLog.entityId, made.id)));
    expect(audit?.after).toMatchObject({
      created: 3,
      updated: 0,
      skipped: 5,
      filename: 'calls.csv',
    });

    // The same file again: nothing to create or update, nothing written.
    const again = await checkAndImport(`${csv}\r\n`, ringbaId);
    expect(again.checked).toMatchObject({ would_create: 0, would_update: 0, unchanged: 3 });
    expect(again.imported).toMatchObject({
      status: 'imported',
      created: 0,
      updated: 0,
      unchanged: 3,
    });
    const after = await t.db.select().from(leads).where(eq(leads.integrationId, ringbaId));
    expect(after).toEqual(expect.arrayContaining(rows));
    expect(after).toHaveLength(3);

    // A changed value updates its lead; a status set by hand stays.
    const rg3 = byCall['RG-3']!;
    await t.call('PATCH', `/leads/${rg3.id}`, {
      body: { status: 'approved', reason: 'buyer_accepted' },
    });
    const changed = await checkAndImport(
      [
        header,
        `RG-3,PUB-77,CA-MEDI,2026-11-21T10:00:00Z,320,,,rejected,,CA,`,
        `RG-2,${pub.email},${offer.id},11/20/2026 2:05 PM,1:40,$20.00,,approved,,,`,
      ].join('\n'),
      ringbaId,
    );
    expect(changed.checked).toMatchObject({
      would_create: 0,
      would_update: 1,
      unchanged: 1,
      error_rows: 0,
    });
    expect(changed.imported).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const [rg3After] = await t.db.select().from(leads).where(eq(leads.id, rg3.id));
    expect(rg3After).toMatchObject({
      durationSeconds: 320,
      status: 'approved',
      statusReason: 'Accepted by the buyer',
    });
  });

  it('counts in the check exactly what the import then does, over several batches of new and known calls', async () => {
    // Two known calls of a first file, one to change and one to leave, then a file of 5,003
    // rows (a batch of 5,000 and one of 3) holding them, one in each batch, among new calls.
    const line = (i: number, seconds: number) =>
      `BIG-${i},${pub.id},${offer.id},2026-11-23 08:00:00,${seconds},,,,,,`;
    const first = await checkAndImport([header, line(2, 60), line(5_002, 60)].join('\n'));
    expect(first.imported).toMatchObject({ created: 2, updated: 0, unchanged: 0 });
    const count = async () =>
      (await t.db.select({ id: leads.id }).from(leads).where(eq(leads.offerId, offer.id))).length;
    const before = await count();

    const rows = [header];
    for (let i = 1; i <= 5_003; i++) rows.push(line(i, i === 5_002 ? 75 : 60));
    const up = await upload(rows.join('\n'));
    const id = up.json().id as string;
    await t.call('POST', `/lead-imports/${id}/check`, { body: { mapping } });
    const checked = await settled(id);
    expect(checked).toMatchObject({
      status: 'checked',
      would_create: 5_001,
      would_update: 1,
      unchanged: 1,
      error_rows: 0,
    });
    // The check wrote nothing.
    expect(await count()).toBe(before);

    await t.call('POST', `/lead-imports/${id}/import`);
    expect(await settled(id)).toMatchObject({
      status: 'imported',
      processed_rows: 5_003,
      created: 5_001,
      updated: 1,
      unchanged: 1,
    });
    expect(await count()).toBe(before + 5_001);
    const changed = await t.db
      .select({ externalCallId: leads.externalCallId, durationSeconds: leads.durationSeconds })
      .from(leads)
      .where(and(eq(leads.offerId, offer.id), eq(leads.durationSeconds, 75)));
    expect(changed).toEqual([{ externalCallId: 'BIG-5002', durationSeconds: 75 }]);
  });

  it('puts calls without a chosen integration under "CSV import", which takes no postbacks', async () => {
    const { imported } = await checkAndImport(
      [header, `X-1,${pub.id},${offer.id},2026-11-22 08:00:00,30,,,,,,`].join('\n'),
    );
    expect(imported).toMatchObject({ created: 1, integration_name: 'CSV import' });
    const [csvImport] = await t.db
      .select()
      .from(integrations)
      .where(eq(integrations.name, 'CSV import'));
    expect(csvImport?.revokedAt).toBeInstanceOf(Date);
  });

  it('refuses bad files with a sentence', async () => {
    const latin1 = Buffer.from(`${header}\nRG-9,Jos\xe9,x,2026-11-20,1,,,,,,\n`, 'latin1');
    const enc = await upload(latin1);
    expect(enc.statusCode).toBe(415);
    expect(enc.json().error.message).toBe(
      'calls.csv is not UTF-8 text (for example an Excel "CSV" in Windows-1252). Save it as "CSV UTF-8" and upload it again.',
    );
    const utf16 = await upload(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(header, 'utf16le')]),
    );
    expect(utf16.statusCode).toBe(415);
    expect(utf16.json().error.message).toContain('UTF-16');

    const big = await upload(Buffer.alloc(50 * 1024 * 1024 + 10, 'a'));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe(
      'The file is larger than 50 MB. Split it into smaller files and import them one after another.',
    );

    expect((await upload('')).json().error.message).toBe('The file is empty.');
    expect((await upload(`${header}\n`)).json().error.message).toBe(
      'The file has a header but no rows.',
    );
    expect((await upload('a,"b\n1,2\n')).json().error.message).toBe(
      'Row 1 has a quoted value that never ends (a closing " is missing).',
    );

    // A required field without a column: 400 naming it.
    const up = await upload('Call ID,Publisher,When\nA,B,2026-11-20\n');
    const id = up.json().id as string;
    const res = await t.call('POST', `/lead-imports/${id}/check`, {
      body: { mapping: { external_call_id: 'Call ID', publisher: 'Publisher', timestamp: 'Date' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      'Choose the column that holds the offer (our id, title or external id). 1 more column is missing.',
    );
    expect(res.json().error.details).toEqual({
      offer: ['Choose the column that holds the offer (our id, title or external id).'],
      timestamp: ['The file has no column "Date".'],
    });
    // Importing before a check is refused.
    const early = await t.call('POST', `/lead-imports/${id}/import`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toBe(
      'Check the file with its column mapping before importing it.',
    );
    expect((await t.call('GET', `/lead-imports/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });
});

describe('CSV import by names, with unit headers and every error of a row (issue 34 item 5)', () => {
  it("matches publishers and offers by name (any case), refuses an ambiguous name naming both, and lists all of a row's errors", async () => {
    // Two publishers share a name: it matches neither.
    const twinA = await buildPublisher(t.db, { name: 'Twin Media', email: 'a@twin.example' });
    const twinB = await buildPublisher(t.db, { name: 'twin media', email: 'b@twin.example' });
    const csv = [
      'Call ID,Publisher,Offer,Date,Duration (s),Payout ($)',
      'NM-1,import ivy,HOME WARRANTY,2026-11-20 09:00,95,12.50',
      'NM-2,Twin Media,Home Warranty,2026-11-20 09:05,60,',
      'NM-3,Nobody Known,No Such Offer,later,forever,lots',
    ].join('\n');
    const up = await upload(csv);
    expect(up.statusCode, up.body).toBe(201);
    const made = up.json() as LeadImport;
    // Units in parentheses, case and spacing do not hide a column from the mapping.
    expect(made.suggested_mapping).toMatchObject({
      external_call_id: 'Call ID',
      publisher: 'Publisher',
      offer: 'Offer',
      timestamp: 'Date',
      duration_seconds: 'Duration (s)',
      payout: 'Payout ($)',
    });
    const checked = await runStep(made.id, 'check', { mapping: made.suggested_mapping });
    expect(checked).toMatchObject({ status: 'checked', would_create: 1, error_rows: 2 });
    expect(checked.errors).toEqual([
      {
        line: 3,
        column: 'Publisher',
        message: `"Twin Media" names 2 publishers: Twin Media (a@twin.example), twin media (b@twin.example). Use the id instead.`,
      },
      {
        line: 4,
        column: 'Date',
        message:
          '"later" is not a date and time (use 2026-11-20 14:05:00, 11/20/2026 2:05 PM or an ISO time).',
      },
      {
        line: 4,
        column: 'Duration (s)',
        message: '"forever" is not a duration in seconds (0 to 86400, or m:ss).',
      },
      { line: 4, column: 'Payout ($)', message: '"lots" is not an amount of money (e.g. 25.50).' },
      {
        line: 4,
        column: 'Publisher',
        message:
          'No publisher matches "Nobody Known" (our id, e-mail, name, or an external id attached on the integration).',
      },
      {
        line: 4,
        column: 'Offer',
        message:
          'No offer matches "No Such Offer" (our id, title, or an external id attached on the integration).',
      },
    ]);
    const imported = await runStep(made.id, 'import');
    expect(imported).toMatchObject({ status: 'imported', created: 1 });
    const [lead] = await t.db.select().from(leads).where(eq(leads.externalCallId, 'NM-1'));
    expect(lead).toMatchObject({
      publisherId: pub.id,
      offerId: offer.id,
      durationSeconds: 95,
      payout: '12.50',
    });
    expect([twinA.id, twinB.id]).not.toContain(lead!.publisherId);
  });
});
