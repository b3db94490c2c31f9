import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAbaRoutingNumber } from '../../../contract/money.ts';
import { leads, paymentDetails, payouts, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { callAs } from '../../test/call-as.ts';
import { buildBuyer, buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';

/**
 * Payment files of a payout run (issue 27) through the API: each processor's file is read back
 * by a parser that is not ours (csv-parse for the CSVs, @midlandsbank/node-nacha's reader for
 * the ACH file) and its totals are checked against the run's payouts in the database.
 */

/** @midlandsbank/node-nacha ships no types: the reader's answer, as far as the test reads it. */
type ParsedAch = {
  file: {
    destination: string;
    origin: string;
    recordSize: string;
    blockingFactor: string;
    footer: {
      batchCount: number;
      blockCount: number;
      entryAndAddendaCount: number;
      entryHash: number;
      totalDebit: number;
      totalCredit: number;
    };
  };
  batches: {
    serviceClassCode: number;
    entryClassCode: string;
    companyId: string;
    originatingDFIIdentification: string;
    entries: {
      transactionCode: string;
      receivingDFIIdentification: number;
      checkDigit: number;
      dfiAccount: string;
      amount: number;
      identificationNumber: string;
      receivingCompanyName: string;
      traceNumber: number;
    }[];
    footer: {
      entryAndAddendaCount: number;
      entryHash: number;
      totalDebit: number;
      totalCredit: number;
    };
  }[];
};
const nacha = createRequire(import.meta.url)('@midlandsbank/node-nacha') as {
  from(source: string): { data: ParsedAch };
};

let t: AdminTestContext;
let offer: Awaited<ReturnType<typeof buildOffer>>;

beforeAll(async () => {
  t = await setupAdminTest();
  offer = await buildOffer(t.db, { title: 'Solar Calls', payout: '25.00' });
  // Payout holds are another feature: every publisher here is paid by the run.
  await t.db.update(settings).set({ payoutHolds: [] });
});
afterAll(() => t.close());

async function lead(pub: TestUser, payout: string) {
  await t.db.insert(leads).values({
    publisherId: pub.id,
    offerId: offer.id,
    payout,
    status: 'approved',
    timestamp: new Date('2026-11-02T12:00:00Z'),
  });
}

async function asPublisher(pub: TestUser, method: 'GET' | 'PUT', url: string, body?: object) {
  return callAs(t.app, await t.tokenOf(pub), method, `/api/v1/publisher${url}`, { body });
}

/** Sets the details as the publisher does (validated by the API). */
async function setDetails(pub: TestUser, body: object) {
  const res = await asPublisher(pub, 'PUT', '/payment-details', body);
  expect(res.statusCode, res.body).toBe(200);
}

/** Details written straight to the table: what older rows may hold, unvalidated. */
async function legacyDetails(pub: TestUser, values: Partial<typeof paymentDetails.$inferInsert>) {
  await t.db
    .insert(paymentDetails)
    .values({ publisherId: pub.id, taxFormStatus: 'not_submitted', ...values });
}

const cents = (v: string | number) => Math.round(Number(v) * 100);

/** The run's payouts of these publishers, in cents, from the database. */
async function dbTotal(runId: string, pubs: TestUser[]) {
  const rows = await t.db
    .select({ amount: payouts.amount, publisherId: payouts.publisherId })
    .from(payouts)
    .where(eq(payouts.runId, runId));
  const ids = new Set(pubs.map((p) => p.id));
  return rows.filter((r) => ids.has(r.publisherId)).reduce((s, r) => s + cents(r.amount), 0);
}

const ROUTING_CHECKING = '021000021';
const ROUTING_SAVINGS = '011000015';
const NACHA_QUERY = { odfi: '091000019', company_id: '1234567890', company_name: 'Acme Calls' };

let pub: Record<
  | 'paypal1'
  | 'paypal2'
  | 'paypalBad'
  | 'wise1'
  | 'wiseNoHolder'
  | 'bank1'
  | 'bank2'
  | 'bankNoRouting'
  | 'check'
  | 'none',
  TestUser
>;
let runId: string;

describe('a run paid by every method', () => {
  beforeAll(async () => {
    const make = (name: string) => buildPublisher(t.db, { name });
    pub = {
      paypal1: await make('Paula Pal'),
      paypal2: await make('Peter Pal'),
      paypalBad: await make('Bad Pal'),
      wise1: await make('Wanda Wise'),
      wiseNoHolder: await make('Walter Wise'),
      bank1: await make('Bea Bank'),
      bank2: await make('José Núñez'),
      bankNoRouting: await make('Ben Bank'),
      check: await make('Chuck Check'),
      none: await make('Nora None'),
    };
    const amounts: [TestUser, string][] = [
      [pub.paypal1, '25.00'],
      [pub.paypal2, '40.10'],
      [pub.paypalBad, '10.00'],
      [pub.wise1, '30.00'],
      [pub.wiseNoHolder, '12.00'],
      [pub.bank1, '55.55'],
      [pub.bank2, '1234.56'],
      [pub.bankNoRouting, '20.00'],
      [pub.check, '15.00'],
      [pub.none, '5.00'],
    ];
    for (const [p, a] of amounts) await lead(p, a);
    await setDetails(pub.paypal1, {
      method: 'paypal',
      account: pub.paypal1.email,
      holder_name: 'Paula Pal',
    });
    await setDetails(pub.paypal2, {
      method: 'paypal',
      account: 'peter@pal.example',
      holder_name: 'Peter Pal',
    });
    await legacyDetails(pub.paypalBad, { method: 'paypal', account: 'not an e-mail' });
    await setDetails(pub.wise1, {
      method: 'wise',
      account: 'wanda@wise.example',
      holder_name: 'Wanda Wise',
    });
    await legacyDetails(pub.wiseNoHolder, { method: 'wise', account: 'walter@wise.example' });
    await setDetails(pub.bank1, {
      method: 'bank_transfer',
      account: '000123456789',
      holder_name: 'Bea Bank',
      routing_number: ROUTING_CHECKING,
      account_type: 'checking',
    });
    await setDetails(pub.bank2, {
      method: 'bank_transfer',
      account: '98765432',
      holder_name: 'José Núñez',
      routing_number: ROUTING_SAVINGS,
      account_type: 'savings',
    });
    await legacyDetails(pub.bankNoRouting, {
      method: 'bank_transfer',
      account: 'IBAN DE89 3704 0044 0532 0130 00',
      holderName: 'Ben Bank',
    });
    await setDetails(pub.check, {
      method: 'check',
      account: '1 Main St, Springfield',
      holder_name: 'Chuck Check',
    });
    const run = await t.call('POST', '/payout-runs', {
      body: { publisher_ids: Object.values(pub).map((p) => p.id) },
    });
    expect(run.statusCode, run.body).toBe(201);
    expect(run.json()).toMatchObject({ payouts: 10, total: 1447.21 });
    runId = run.json().id;
  });

  it('lists the files of the run, per method, and who each file cannot carry', async () => {
    const res = await t.call('GET', `/payout-runs/${runId}/files`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json();
    expect(list).toMatchObject({ run_id: runId, currency: 'USD', count: 10, total: 1447.21 });
    expect(list.methods).toEqual([
      { method: 'bank_transfer', label: 'Bank transfer (US, ACH)', count: 3, total: 1310.11 },
      { method: 'paypal', label: 'PayPal', count: 3, total: 75.1 },
      { method: 'wise', label: 'Wise', count: 2, total: 42 },
      { method: 'check', label: 'Check', count: 1, total: 15 },
      { method: null, label: 'No payment details', count: 1, total: 5 },
    ]);
    const byFormat = Object.fromEntries(
      list.files.map((f: { format: string }) => [f.format, f]),
    ) as Record<string, { count: number; total: number; left_out: unknown[]; file_name: string }>;
    expect(Object.keys(byFormat)).toEqual(['paypal', 'wise', 'nacha', 'csv']);
    const day = new Date().toISOString().slice(0, 10);
    /** The one payout a file left out: whose, and why. */
    const leftOut = (who: { email: string }, reason: unknown, more: object = {}) => [
      expect.objectContaining({ publisher_email: who.email, ...more, reason }),
    ];
    expect(byFormat.paypal).toMatchObject({
      count: 2,
      total: 65.1,
      file_name: `run-${day}-${runId.slice(0, 8)}-paypal.csv`,
      left_out: leftOut(
        pub.paypalBad,
        'The PayPal account "not an e-mail" is not an e-mail address.',
        {
          amount: 10,
        },
      ),
    });
    expect(byFormat.wise).toMatchObject({
      count: 1,
      total: 30,
      left_out: leftOut(pub.wiseNoHolder, expect.stringMatching(/No account holder name/)),
    });
    expect(byFormat.nacha).toMatchObject({
      count: 2,
      total: 1290.11,
      file_name: `run-${day}-${runId.slice(0, 8)}-nacha.ach`,
      left_out: leftOut(pub.bankNoRouting, 'No routing number.'),
    });
    expect(byFormat.csv).toMatchObject({ count: 10, total: 1447.21, left_out: [] });
  });

  it('refuses a file that would leave a publisher out, naming them, unless asked', async () => {
    const refused = await t.call('GET', `/payout-runs/${runId}/files/paypal`);
    expect(refused.statusCode).toBe(409);
    const error = refused.json().error;
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`Bad Pal (${pub.paypalBad.email})`);
    expect(error.message).toMatch(/download the file without them/);
    expect(error.details.publishers).toEqual([
      `Bad Pal (${pub.paypalBad.email}): The PayPal account "not an e-mail" is not an e-mail address.`,
    ]);
    const nachaRefused = await t.call('GET', `/payout-runs/${runId}/files/nacha`, {
      query: NACHA_QUERY,
    });
    expect(nachaRefused.statusCode).toBe(409);
    expect(nachaRefused.json().error.message).toContain('Ben Bank');
    expect(nachaRefused.json().error.message).toContain('No routing number.');
  });

  it('PayPal: a Payouts batch CSV PayPal reads, totalling the run’s PayPal payouts', async () => {
    const res = await t.call('GET', `/payout-runs/${runId}/files/paypal`, {
      query: { skip_incomplete: 'true' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      new RegExp(
        `attachment; filename="run-\\d{4}-\\d{2}-\\d{2}-${runId.slice(0, 8)}-paypal\\.csv"`,
      ),
    );
    expect(res.headers['x-left-out-count']).toBe('1');
    expect(decodeURIComponent(String(res.headers['x-left-out']))).toBe(pub.paypalBad.email);
    const rows = parse(res.body, { relax_column_count: false }) as string[][];
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toHaveLength(6);
      expect(row[2]).toBe('USD');
      expect(row[3]).toMatch(/^RUN-[0-9a-f]{8}-[0-9a-f]{8}$/);
      expect(row[3]!.length).toBeLessThanOrEqual(30);
      expect(row[4]).toMatch(/^Payout from .+, statement ST-\d{4}-\d{6}$/);
      expect(row[5]).toBe('PAYPAL');
    }
    expect(rows.map((r) => r[0]).sort()).toEqual([pub.paypal1.email, 'peter@pal.example'].sort());
    const fileTotal = rows.reduce((s, r) => s + cents(r[1]!), 0);
    expect(fileTotal).toBe(await dbTotal(runId, [pub.paypal1, pub.paypal2]));
    expect(res.headers['x-payment-file-total']).toBe('65.10');
    // The file plus who it left out: every PayPal payout of the run.
    expect(fileTotal + cents(10)).toBe(
      await dbTotal(runId, [pub.paypal1, pub.paypal2, pub.paypalBad]),
    );
  });

  it('Wise: a batch CSV with Wise’s header, totalling the run’s Wise payouts', async () => {
    const res = await t.call('GET', `/payout-runs/${runId}/files/wise`, {
      query: { skip_incomplete: 'true' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('-wise.csv"');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(res.body.split(/\r?\n/)[0]).toBe(
      'name,recipientEmail,paymentReference,receiverType,amountCurrency,amount,sourceCurrency,targetCurrency',
    );
    expect(rows).toEqual([
      {
        name: 'Wanda Wise',
        recipientEmail: 'wanda@wise.example',
        paymentReference: expect.stringMatching(/^ST-\d{4}-\d{6}$/),
        receiverType: 'PERSON',
        amountCurrency: 'target',
        amount: '30.00',
        sourceCurrency: 'USD',
        targetCurrency: 'USD',
      },
    ]);
    expect(rows.reduce((s, r) => s + cents(r.amount!), 0)).toBe(await dbTotal(runId, [pub.wise1]));
  });

  it('NACHA: asks for the bank settings, checking each', async () => {
    const missing = await t.call('GET', `/payout-runs/${runId}/files/nacha`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details).toEqual({
      odfi: ['The ODFI routing number is required.'],
      company_id: ['The company ID is required.'],
    });
    const badOdfi = await t.call('GET', `/payout-runs/${runId}/files/nacha`, {
      query: { ...NACHA_QUERY, odfi: '091000018' },
    });
    expect(badOdfi.statusCode).toBe(400);
    expect(badOdfi.json().error.details.odfi).toEqual([
      'The ODFI routing number is not a valid routing number (its check digit does not match).',
    ]);
    const badFormat = await t.call('GET', `/payout-runs/${runId}/files/xls`);
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json().error.message).toMatch(/paypal, wise, nacha, csv/);
  });

  it('NACHA: a PPD credit file read back by a NACHA reader, its controls matching the run', async () => {
    const res = await t.call('GET', `/payout-runs/${runId}/files/nacha`, {
      query: { ...NACHA_QUERY, skip_incomplete: 'true', effective_date: '2026-11-20' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=us-ascii');
    expect(res.headers['content-disposition']).toMatch(/-nacha\.ach"$/);
    expect(res.headers['x-left-out-count']).toBe('1');
    const text = res.body;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    // 94-character records, blocked by 10: header, batch header, 2 entries, 2 controls, 4 fillers.
    for (const line of lines) expect(line).toHaveLength(94);
    expect(lines).toHaveLength(10);
    expect(lines.map((l) => l[0]).join('')).toBe('1566899999');
    expect(lines.slice(6).every((l) => l === '9'.repeat(94))).toBe(true);
    expect(/^[\x20-\x7e]+$/.test(lines.join(''))).toBe(true);

    // The library's own reader.
    const ach = nacha.from(text).data;
    expect(ach.file).toMatchObject({
      destination: ' 091000019',
      origin: '1234567890',
      recordSize: '094',
      blockingFactor: '10',
    });
    expect(ach.batches).toHaveLength(1);
    const batch = ach.batches[0]!;
    expect(batch).toMatchObject({
      serviceClassCode: 220,
      entryClassCode: 'PPD',
      companyId: '1234567890',
      originatingDFIIdentification: '09100001',
    });
    const entries = [...batch.entries].sort((a, b) => a.amount - b.amount);
    expect(entries).toMatchObject([
      {
        transactionCode: '22',
        receivingDFIIdentification: 2100002,
        checkDigit: 1,
        dfiAccount: '000123456789',
        amount: 5555,
        receivingCompanyName: 'BEA BANK',
        identificationNumber: expect.stringMatching(/^ST-\d{4}-\d{6}$/),
      },
      {
        transactionCode: '32',
        receivingDFIIdentification: 1100001,
        checkDigit: 5,
        dfiAccount: '98765432',
        amount: 123456,
        receivingCompanyName: 'JOSE NUNEZ',
      },
    ]);
    // Totals and hash, recomputed from the entries, equal both control records.
    const credit = entries.reduce((s, e) => s + e.amount, 0);
    const hash = entries.reduce((s, e) => s + e.receivingDFIIdentification, 0) % 10 ** 10;
    expect(batch.footer).toMatchObject({
      entryAndAddendaCount: 2,
      entryHash: hash,
      totalDebit: 0,
      totalCredit: credit,
    });
    expect(ach.file.footer).toMatchObject({
      batchCount: 1,
      blockCount: 1,
      entryAndAddendaCount: 2,
      entryHash: hash,
      totalDebit: 0,
      totalCredit: credit,
    });
    // …and equal the run's bank transfers that the file carries.
    expect(credit).toBe(await dbTotal(runId, [pub.bank1, pub.bank2]));
    // Trace numbers: the ODFI's 8 digits, then 1, 2, …
    expect(entries.map((e) => String(e.traceNumber)).sort()).toEqual([
      '91000010000001',
      '91000010000002',
    ]);
    // Effective date and company name sit where the batch header puts them.
    expect(lines[1]!.slice(69, 75)).toBe('261120');
    expect(lines[1]!.slice(4, 20)).toBe('ACME CALLS      ');
  });

  it('generic CSV: every payout, by the new route and the old one', async () => {
    const res = await t.call('GET', `/payout-runs/${runId}/files/csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('-all.csv"');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(10);
    const total = rows.reduce((s, r) => s + cents(r.amount!), 0);
    expect(total).toBe(await dbTotal(runId, Object.values(pub)));
    expect(rows.find((r) => r.publisher_email === pub.bank1.email)).toMatchObject({
      payment_method: 'bank_transfer',
      payment_account: '000123456789',
      holder_name: 'Bea Bank',
      routing_number: ROUTING_CHECKING,
      account_type: 'checking',
      amount: '55.55',
      currency: 'USD',
    });
    const old = await t.call('GET', `/payout-runs/${runId}/export.csv`);
    expect(old.statusCode).toBe(200);
    expect(parse(old.body, { columns: true })).toEqual(rows);
  });

  it('a file of a method nobody in the run uses, or of a void run, is refused', async () => {
    const solo = await buildPublisher(t.db, { name: 'Solo' });
    await lead(solo, '8.00');
    await setDetails(solo, { method: 'paypal', account: 'solo@pal.example', holder_name: 'Solo' });
    const run = (
      await t.call('POST', '/payout-runs', { body: { publisher_ids: [solo.id] } })
    ).json();
    const list = (await t.call('GET', `/payout-runs/${run.id}/files`)).json();
    expect(list.files.map((f: { format: string }) => f.format)).toEqual(['paypal', 'csv']);
    const wise = await t.call('GET', `/payout-runs/${run.id}/files/wise`);
    expect(wise.statusCode).toBe(409);
    expect(wise.json().error.message).toBe(
      'No payout of this run is paid by Wise: there is no Wise file.',
    );
    await t.call('POST', `/payout-runs/${run.id}/void`, { body: { reason: 'Test' } });
    const voided = await t.call('GET', `/payout-runs/${run.id}/files/paypal`);
    expect(voided.statusCode).toBe(409);
    expect(voided.json().error.message).toMatch(/void/);
  });
});

describe('who may read the files', () => {
  it('admins only; an unknown run is 404', async () => {
    const publisher = await buildPublisher(t.db);
    const buyer = await buildBuyer(t.db);
    for (const user of [publisher, buyer]) {
      const token = await t.tokenOf(user);
      for (const path of [`/payout-runs/${runId}/files`, `/payout-runs/${runId}/files/csv`]) {
        const res = await t.call('GET', path, { token });
        expect(res.statusCode, `${user.role} ${path}`).toBe(403);
      }
    }
    expect((await t.call('GET', `/payout-runs/${runId}/files`, { token: null })).statusCode).toBe(
      401,
    );
    const unknown = randomUUID();
    for (const path of [
      `/payout-runs/${unknown}/files`,
      `/payout-runs/${unknown}/files/paypal`,
      `/payout-runs/${unknown}/files/csv`,
      `/payout-runs/${unknown}/export.csv`,
    ]) {
      const res = await t.call('GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

describe('payment details the publisher sets', () => {
  it('checks each method’s fields, and never takes the tax form status', async () => {
    const p = await buildPublisher(t.db);
    const put = (body: object) => asPublisher(p, 'PUT', '/payment-details', body);
    const details = async (body: object) => (await put(body)).json().error.details;
    /** A bank transfer to holder A, account 12345678, with these fields over it. */
    const bank = (over: object) =>
      details({ method: 'bank_transfer', account: '12345678', holder_name: 'A', ...over });

    expect(await bank({})).toEqual({
      routing_number: ['The routing number is required for a bank transfer.'],
      account_type: ['Choose whether the account is checking or savings.'],
    });
    expect(
      await bank({ account: '12-34', routing_number: '021000022', account_type: 'checking' }),
    ).toEqual({
      account: ['Enter the bank account number: 4 to 17 digits, no spaces or dashes.'],
      routing_number: [expect.stringMatching(/^This routing number is not valid/)],
    });
    expect(await bank({ routing_number: '02100002', account_type: 'current' })).toEqual({
      account_type: ['Account type must be checking or savings.'],
    });
    expect(await bank({ routing_number: '02100002', account_type: 'savings' })).toEqual({
      routing_number: ['A routing number is 9 digits.'],
    });
    expect(await details({ method: 'paypal', account: 'me at home', holder_name: 'A' })).toEqual({
      account: ['Enter the e-mail address of your PayPal account, e.g. name@example.com.'],
    });
    expect(await details({ method: 'wise', account: 'x@y', holder_name: ' ' })).toEqual({
      account: ['Enter the e-mail address of your Wise account, e.g. name@example.com.'],
      holder_name: ["The account holder's name is required."],
    });
    const taxForm = await put({
      method: 'check',
      account: '1 Main St',
      holder_name: 'A',
      tax_form_status: 'approved',
    });
    expect(taxForm.statusCode).toBe(400);
    expect(taxForm.json().error.details).toEqual({
      tax_form_status: ['The tax form status is set by the network after reviewing your form.'],
    });
    expect(isAbaRoutingNumber(ROUTING_CHECKING)).toBe(true);
    expect(isAbaRoutingNumber('021000022')).toBe(false);
  });

  it('keeps the tax form of a row that had no method yet, and drops bank fields for other methods', async () => {
    const p = await buildPublisher(t.db);
    const uploaded = new Date('2026-10-01T10:00:00Z');
    await legacyDetails(p, {
      taxFormStatus: 'submitted',
      taxFormKey: 'tax-forms/x.pdf',
      taxFormName: 'w9.pdf',
      taxFormUploadedAt: uploaded,
    });
    const before = await asPublisher(p, 'GET', '/payment-details');
    expect(before.json()).toMatchObject({ method: null, tax_form_status: 'submitted' });
    const saved = await asPublisher(p, 'PUT', '/payment-details', {
      method: 'bank_transfer',
      account: '12345678',
      holder_name: 'Tax Payer',
      routing_number: ROUTING_SAVINGS,
      account_type: 'savings',
    });
    expect(saved.json()).toMatchObject({
      method: 'bank_transfer',
      holder_name: 'Tax Payer',
      routing_number: ROUTING_SAVINGS,
      account_type: 'savings',
      tax_form_status: 'submitted',
    });
    const [row] = await t.db
      .select()
      .from(paymentDetails)
      .where(inArray(paymentDetails.publisherId, [p.id]));
    expect(row).toMatchObject({
      taxFormStatus: 'submitted',
      taxFormKey: 'tax-forms/x.pdf',
      taxFormName: 'w9.pdf',
      taxFormUploadedAt: uploaded,
    });
    const paypal = await asPublisher(p, 'PUT', '/payment-details', {
      method: 'paypal',
      account: 'tax@payer.example',
      holder_name: 'Tax Payer',
      routing_number: ROUTING_SAVINGS,
      account_type: 'savings',
    });
    expect(paypal.json()).toMatchObject({
      method: 'paypal',
      routing_number: null,
      account_type: null,
      tax_form_status: 'submitted',
    });
  });
});
