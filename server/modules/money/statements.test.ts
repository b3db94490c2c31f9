import { and, eq } from 'drizzle-orm';
import { PDFDocument, type PDFFont, PDFName, PDFRawStream, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Statement } from '../../../contract/money.ts';
import { cents } from '../../db/money.ts';
import { leads, payouts, settings } from '../../db/schema.ts';
import { type AdminTestContext, setupAdminTest } from '../../test/admin-test.ts';
import { buildOffer, buildPublisher, type TestUser } from '../../test/factories.ts';
import { pngFile, svgFile } from '../../test/fixtures.ts';
import { type PdfTextItem, pdfText, pdfTextItems } from '../../test/pdf-text.ts';
import { renderStatementPdf } from './statement-pdf.ts';

/**
 * Payout statements an accountant accepts (issue 27): numbered per publisher and year, the
 * period as dates of the network's zone, one line per call then reversals and adjustments with
 * subtotals and counts, the network's name, address and support e-mail, page numbers and a
 * table header on every page, and offer names wrapped inside their column.
 */

const ADDRESS = ['Harborline Media LLC', '1200 Harbor Drive, Suite 400', 'San Diego, CA 92101'];
const LONG_OFFER =
  'Medicare Advantage Inbound Calls - Premium Tier (English and Spanish speakers, aged 65 and over, no long-term care)';
const YEAR = new Date().getUTCFullYear();

let t: AdminTestContext;
let solar: Awaited<ReturnType<typeof buildOffer>>;
let medicare: Awaited<ReturnType<typeof buildOffer>>;
let helvetica: PDFFont;
let helveticaBold: PDFFont;

beforeAll(async () => {
  t = await setupAdminTest();
  // Statements, not holds, are tested here: no hold applies (holds.test.ts tests them).
  await t.db.update(settings).set({ payoutHolds: [] });
  const saved = await t.call('PATCH', '/settings', {
    body: {
      company_name: 'Harborline Call Network',
      support_email: 'payouts@harborline.example',
      company_address: `  ${ADDRESS[0]}  \r\n${ADDRESS[1]}\n\n${ADDRESS[2]}\n`,
      timezone: 'America/New_York',
    },
  });
  expect(saved.statusCode).toBe(200);
  solar = await buildOffer(t.db, { title: 'Solar Calls', payout: '25.00' });
  medicare = await buildOffer(t.db, { title: LONG_OFFER, payout: '35.50' });
  const doc = await PDFDocument.create();
  helvetica = await doc.embedFont(StandardFonts.Helvetica);
  helveticaBold = await doc.embedFont(StandardFonts.HelveticaBold);
});
afterAll(() => t.close());

async function payoutOfRun(pub: TestUser, runId: string) {
  const [p] = await t.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.publisherId, pub.id), eq(payouts.runId, runId)));
  return p!;
}

async function run(pub: TestUser, period: { period_from?: string; period_to?: string } = {}) {
  const res = await t.call('POST', '/payout-runs', {
    body: { publisher_ids: [pub.id], ...period },
  });
  expect(res.statusCode).toBe(201);
  return payoutOfRun(pub, res.json().id);
}

/** A new publisher with one approved $25.00 call of 2026-10-02, paid by a run: the payout. */
async function paidOneCall() {
  const pub = await buildPublisher(t.db);
  await t.db.insert(leads).values({
    publisherId: pub.id,
    offerId: solar.id,
    payout: '25.00',
    status: 'approved',
    timestamp: new Date('2026-10-02T15:00:00Z'),
  });
  return run(pub);
}

/** The text of the first page of the payout's statement PDF. */
async function statementText(payoutId: string) {
  const [text] = await pdfText(
    (await t.call('GET', `/payouts/${payoutId}/statement.pdf`)).rawPayload,
  );
  return text;
}

/** `$1,234.50` / `-$25.00` as exact cents. */
const moneyCents = (text: string) => cents(text.replace(/[$,]/g, ''));
const isMoney = (text: string) => /^-?\$[\d,]+\.\d\d$/.test(text);
const isDay = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text);

/** The items of one row: same page, same baseline. */
const rowOf = (items: PdfTextItem[], at: PdfTextItem) =>
  items.filter((i) => i.page === at.page && Math.abs(i.y - at.y) < 0.01);

/** Where a column header starts on a page (bold), the x its left-aligned cells start at. */
const columnX = (items: PdfTextItem[], page: number, title: string) =>
  items.find((i) => i.page === page && i.font === 'Helvetica-Bold' && i.text === title)?.x;

/**
 * The lines of one left-aligned cell: from the row's baseline down, one line apart (11 pt);
 * the next row starts further down, after the row's padding.
 */
function cellLines(items: PdfTextItem[], row: PdfTextItem, x: number): string[] {
  const column = items
    .filter((i) => i.page === row.page && i.x === x && i.font === 'Helvetica' && i.y <= row.y)
    .sort((a, b) => b.y - a.y);
  const lines: string[] = [];
  let y = row.y;
  for (const i of column) {
    if (y - i.y > 11.5) break;
    lines.push(i.text);
    y = i.y;
  }
  return lines;
}

describe('the settings postal address', () => {
  it('is kept trimmed, line by line; blank clears it; at most 500 characters', async () => {
    const got = (await t.call('GET', '/settings')).json();
    expect(got.company_address).toBe(`${ADDRESS[0]}\n${ADDRESS[1]}\n\n${ADDRESS[2]}`);
    const long = await t.call('PATCH', '/settings', { body: { company_address: 'x'.repeat(501) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.message).toMatch(/at most 500 characters/);
    const cleared = await t.call('PATCH', '/settings', { body: { company_address: '  \n ' } });
    expect(cleared.json().company_address).toBeNull();
    const again = await t.call('PATCH', '/settings', {
      body: { company_address: ADDRESS.join('\n') },
    });
    expect(again.json().company_address).toBe(ADDRESS.join('\n'));
  });
});

describe('a statement of 120 calls', () => {
  let pub: TestUser;
  let payout: Awaited<ReturnType<typeof payoutOfRun>>;
  let statement: Statement;
  let items: PdfTextItem[];
  let pages: string[];
  type Call = { id: string; callId: string; day: string; offer: string; seconds: number };
  const calls: Call[] = [];

  beforeAll(async () => {
    pub = await buildPublisher(t.db, { name: 'Bright Path Media' });
    // September: one call paid, then rejected: the October run takes it back.
    const [taken] = await t.db
      .insert(leads)
      .values({
        publisherId: pub.id,
        offerId: solar.id,
        payout: '25.00',
        status: 'approved',
        timestamp: new Date('2026-09-20T15:00:00Z'),
        externalCallId: 'RB-SEPT-0001',
        durationSeconds: 95,
      })
      .returning();
    await run(pub, { period_from: '2026-09-01', period_to: '2026-09-30' });
    await t.db.update(leads).set({ status: 'rejected' }).where(eq(leads.id, taken!.id));
    const bonus = await t.call('POST', `/publishers/${pub.id}/adjustments`, {
      body: { reason: 'bonus', amount: 50, note: 'Quality bonus for October' },
    });
    expect(bonus.statusCode).toBe(201);
    // October: 120 calls, every third with a tracker call id, some with minutes only.
    const rows = Array.from({ length: 120 }, (_, i) => {
      const long = i % 4 === 1;
      // The first call is at 02:30 UTC on the 15th: the 14th in New York.
      const at =
        i === 0
          ? new Date('2026-10-15T02:30:00Z')
          : new Date(Date.UTC(2026, 9, 1 + (i % 31), 14, i % 60));
      return {
        publisherId: pub.id,
        offerId: long ? medicare.id : solar.id,
        payout: long ? '35.50' : '25.00',
        status: 'approved' as const,
        timestamp: at,
        externalCallId:
          i % 3 === 0 ? `CA${String(i).padStart(4, '0')}f3b9c2d1e8a7f3b9c2d1e8a7` : null,
        durationSeconds: i % 5 === 0 ? null : 61 + i * 7,
        callDuration: 3,
      };
    });
    const inserted = await t.db.insert(leads).values(rows).returning();
    inserted.forEach((l, i) => {
      calls.push({
        id: l.id,
        callId: l.externalCallId ?? l.id.slice(-12),
        day: i === 0 ? '2026-10-14' : `2026-10-${String(1 + (i % 31)).padStart(2, '0')}`,
        offer: i % 4 === 1 ? LONG_OFFER : 'Solar Calls',
        seconds: l.durationSeconds ?? 180,
      });
    });
    payout = await run(pub, { period_from: '2026-10-01', period_to: '2026-10-31' });
    statement = (await t.call('GET', `/payouts/${payout.id}/statement`)).json();
    const pdf = await t.call('GET', `/payouts/${payout.id}/statement.pdf`);
    expect(pdf.statusCode).toBe(200);
    items = await pdfTextItems(pdf.rawPayload);
    pages = await pdfText(pdf.rawPayload);
  });

  it('is numbered per publisher and year, everywhere the payout shows', async () => {
    // The September payout was this publisher's first statement of the year.
    expect(statement.number).toBe(`ST-${YEAR}-000002`);
    expect(payout.statementSeq).toBe(2);
    const admin = (await t.call('GET', `/payouts/${payout.id}`)).json();
    expect(admin.statement_number).toBe(`ST-${YEAR}-000002`);
    const own = await t.app.inject({
      url: `/api/v1/publisher/payouts/${payout.id}`,
      headers: { authorization: `Bearer ${await t.tokenOf(pub)}` },
    });
    expect(own.json().statement_number).toBe(`ST-${YEAR}-000002`);
    // Another publisher starts at 1.
    const first = await paidOneCall();
    const st = (await t.call('GET', `/payouts/${first.id}/statement`)).json();
    expect(st.number).toBe(`ST-${YEAR}-000001`);
  });

  it('has one line per call, then the reversal and the adjustment; the total is their sum', () => {
    expect(statement.period_label).toBe('2026-10-01 to 2026-10-31');
    expect(statement.timezone).toBe('America/New_York');
    expect(statement.network).toEqual({
      name: 'Harborline Call Network',
      support_email: 'payouts@harborline.example',
      address: ADDRESS.join('\n'),
    });
    const callLines = statement.lines.filter((l) => l.kind === 'lead');
    expect(callLines).toHaveLength(120);
    for (const c of calls) {
      expect(callLines).toContainEqual(
        expect.objectContaining({
          lead_id: c.id,
          call_id: c.callId,
          day: c.day,
          offer: c.offer,
          duration_seconds: c.seconds,
        }),
      );
    }
    expect(statement.lines.filter((l) => l.kind !== 'lead')).toEqual([
      expect.objectContaining({ kind: 'reversal', call_id: 'RB-SEPT-0001', amount: -25 }),
      expect.objectContaining({
        kind: 'adjustment',
        amount: 50,
        description: 'Bonus: Quality bonus for October',
      }),
    ]);
    const longCalls = calls.filter((c) => c.offer === LONG_OFFER).length;
    const callCents = BigInt(longCalls) * 3550n + BigInt(120 - longCalls) * 2500n;
    expect(statement.sections).toEqual([
      { kind: 'lead', title: 'Calls', count: 120, subtotal: Number(callCents) / 100 },
      { kind: 'reversal', title: 'Reversals', count: 1, subtotal: -25 },
      { kind: 'adjustment', title: 'Adjustments', count: 1, subtotal: 50 },
    ]);
    const sum = statement.lines.reduce((s, l) => s + cents(l.amount.toFixed(2)), 0n);
    expect(sum).toBe(callCents - 2500n + 5000n);
    expect(cents(statement.total.toFixed(2))).toBe(sum);
    expect(cents(payout.amount)).toBe(sum);
  });

  it('prints the number, the period, the network and "Page i of N" on every page', () => {
    const n = pages.length;
    expect(n).toBeGreaterThanOrEqual(3);
    pages.forEach((text, i) => {
      expect(text).toContain(`Page ${i + 1} of ${n}`);
      expect(text).toContain(`ST-${YEAR}-000002`);
    });
    const first = pages[0]!;
    expect(first).toContain('Harborline Call Network');
    for (const line of ADDRESS) expect(first).toContain(line);
    expect(first).toContain('Support: payouts@harborline.example');
    expect(first).toContain('Period');
    expect(first).toContain('2026-10-01 to 2026-10-31');
    expect(first).toContain('Bright Path Media');
    expect(first).toContain('America/New_York');
    expect(pages.join('\n')).not.toContain('example.com');
  });

  it('prints every call on one row: date, offer, call id, duration, amount', () => {
    const dayItems = items.filter((i) => i.x === 42 && isDay(i.text));
    for (const c of calls) {
      const date = dayItems.find(
        (d) =>
          d.text === c.day &&
          cellLines(items, d, columnX(items, d.page, 'Call ID')!).join('') === c.callId,
      );
      expect(date, `the row of call ${c.callId}`).toBeDefined();
      const texts = rowOf(items, date!).map((i) => i.text);
      const m = Math.floor(c.seconds / 60);
      expect(texts).toContain(`${m}:${String(c.seconds % 60).padStart(2, '0')}`);
      expect(texts).toContain(c.offer === LONG_OFFER ? '$35.50' : '$25.00');
      expect(cellLines(items, date!, columnX(items, date!.page, 'Offer')!).join(' ')).toBe(c.offer);
    }
    // The reversal and the adjustment have their rows too.
    expect(dayItems.some((d) => rowOf(items, d).some((i) => i.text === 'RB-SEPT-0001'))).toBe(true);
    expect(items.some((i) => i.text === 'Bonus: Quality bonus for October')).toBe(true);
  });

  it('repeats the table header on every page of the calls', () => {
    const callIds = new Set(calls.map((c) => c.callId));
    const pagesWithCalls = new Set(items.filter((i) => callIds.has(i.text)).map((i) => i.page));
    expect(pagesWithCalls.size).toBeGreaterThanOrEqual(3);
    for (const page of pagesWithCalls) {
      const headers = items.filter((i) => i.page === page && i.font === 'Helvetica-Bold');
      for (const title of ['Date', 'Offer', 'Call ID', 'Duration', 'Amount']) {
        expect(
          headers.map((h) => h.text),
          `page ${page}`,
        ).toContain(title);
      }
    }
  });

  it('sums the printed line amounts to the printed total and the payout', () => {
    // A line's row starts with its date; the subtotal and total rows have none.
    const amounts = items
      .filter((i) => i.x === 42 && isDay(i.text))
      .map((d) => rowOf(items, d).find((i) => isMoney(i.text) && i.font === 'Helvetica'))
      .filter((a): a is PdfTextItem => a !== undefined);
    expect(amounts).toHaveLength(122);
    const sum = amounts.reduce((s, a) => s + moneyCents(a.text), 0n);
    const totalLabel = items.find((i) => i.text === 'Total: 120 calls, 1 reversal, 1 adjustment');
    expect(totalLabel).toBeDefined();
    const printedTotal = rowOf(items, totalLabel!).find((i) => isMoney(i.text))!;
    expect(moneyCents(printedTotal.text)).toBe(sum);
    expect(cents(payout.amount)).toBe(sum);
    // The subtotals print with their counts.
    expect(items.map((i) => i.text)).toEqual(
      expect.arrayContaining([
        'Subtotal calls: 120 calls',
        'Subtotal reversals: 1 reversal',
        'Subtotal adjustments: 1 adjustment',
      ]),
    );
  });

  it('wraps a long offer name inside its column, measured, never into the call id', () => {
    let wrapped = 0;
    const pagesSeen = new Set(items.map((i) => i.page));
    for (const page of pagesSeen) {
      const header = items.filter((i) => i.page === page && i.font === 'Helvetica-Bold');
      const offerX = header.find((h) => h.text === 'Offer')?.x;
      const callX = header.find((h) => h.text === 'Call ID')?.x;
      if (offerX === undefined || callX === undefined) continue;
      const onPage = items.filter((i) => i.page === page);
      for (const item of onPage.filter((i) => i.x === offerX && i.font === 'Helvetica')) {
        const right = item.x + helvetica.widthOfTextAtSize(item.text, item.size);
        expect(right, `"${item.text}" ends before the call id column`).toBeLessThan(callX);
      }
      // Each long offer name: its first line on the row of its date, the rest below, whole.
      for (const date of onPage.filter((i) => i.x === 42 && isDay(i.text))) {
        const lines = cellLines(items, date, offerX);
        if (lines[0] === undefined || !LONG_OFFER.startsWith(lines[0])) continue;
        expect(lines.length).toBeGreaterThan(1);
        expect(lines.join(' ')).toBe(LONG_OFFER);
        wrapped++;
      }
    }
    expect(wrapped).toBe(calls.filter((c) => c.offer === LONG_OFFER).length);
  });

  it('never draws two strings of a line over each other', () => {
    const lines = new Map<string, PdfTextItem[]>();
    for (const i of items) {
      const key = `${i.page}:${i.y.toFixed(2)}`;
      lines.set(key, [...(lines.get(key) ?? []), i]);
    }
    for (const line of lines.values()) {
      const sorted = line.sort((a, b) => a.x - b.x);
      sorted.slice(1).forEach((next, k) => {
        const prev = sorted[k]!;
        const font = prev.font === 'Helvetica-Bold' ? helveticaBold : helvetica;
        const right = prev.x + font.widthOfTextAtSize(prev.text, prev.size);
        expect(right, `"${prev.text}" runs into "${next.text}"`).toBeLessThan(next.x);
      });
    }
  });

  it('answers the CSV with one row per call, the subtotals and the total', async () => {
    const csv = (await t.call('GET', `/payouts/${payout.id}/statement.csv`)).body;
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toBe('statement,type,date,offer,call_id,duration,description,amount,currency');
    const callRows = rows.filter((r) => r.startsWith(`ST-${YEAR}-000002,call,`));
    expect(callRows).toHaveLength(120);
    for (const c of calls) expect(csv).toContain(`,${c.day},`);
    expect(csv).toContain(`,${calls[3]!.callId},`);
    expect(csv).toContain(',reversal,2026-09-20,Solar Calls,RB-SEPT-0001,1:35,');
    expect(rows.at(-1)).toBe(
      `ST-${YEAR}-000002,total,,,,,"120 calls, 1 reversal, 1 adjustment",${statement.total.toFixed(2)},USD`,
    );
  });
});

describe('statement edge cases', () => {
  it('an open-ended period says up to which day; no address, no address lines', async () => {
    await t.call('PATCH', '/settings', { body: { company_address: null } });
    const p = await paidOneCall();
    const st: Statement = (await t.call('GET', `/payouts/${p.id}/statement`)).json();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(p.date);
    expect(st.issued_on).toBe(today);
    expect(st.period_label).toBe(`All unpaid calls up to ${today}`);
    expect(st.network.address).toBeNull();
    const text = await statementText(p.id);
    expect(text).toContain(`All unpaid calls up to ${today}`);
    expect(text).not.toContain(ADDRESS[1]);
    expect(text).toContain('Page 1 of 1');
    await t.call('PATCH', '/settings', { body: { company_address: ADDRESS.join('\n') } });
  });

  it('embeds a PNG logo and leaves an SVG one out without failing', async () => {
    const p = await paidOneCall();
    const upload = async (filename: string, data: Buffer) => {
      const res = await t.call('PUT', '/settings/logo', {
        multipart: [{ field: 'file', filename, content: data }],
      });
      expect(res.statusCode).toBe(200);
    };
    const images = async () => {
      const pdf = await PDFDocument.load(
        (await t.call('GET', `/payouts/${p.id}/statement.pdf`)).rawPayload,
      );
      return pdf.context
        .enumerateIndirectObjects()
        .filter(
          ([, o]) =>
            o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
        ).length;
    };
    await upload('logo.png', pngFile);
    expect(await images()).toBe(1);
    await upload('logo.svg', svgFile);
    expect(await images()).toBe(0);
  });

  it('a payout from before runs: no number, one line, the total is its amount', async () => {
    const pub = await buildPublisher(t.db);
    const [p] = await t.db
      .insert(payouts)
      .values({ publisherId: pub.id, amount: '120.00', notes: 'Wire of March' })
      .returning();
    const st: Statement = (await t.call('GET', `/payouts/${p!.id}/statement`)).json();
    expect(st.number).toBeNull();
    expect(st.lines).toEqual([
      expect.objectContaining({ kind: 'advance', amount: 120, call_id: null }),
    ]);
    expect(st.total).toBe(120);
    const text = await statementText(p!.id);
    expect(text).toContain(`Payout ${p!.id}`);
    expect(text).toContain('$120.00');
    expect((await t.call('GET', `/payouts/${p!.id}`)).json().statement_number).toBeNull();
  });
});

describe('the PDF renderer', () => {
  it('writes what its fonts cannot as "?", and a currency symbol they lack as the code', async () => {
    const line = {
      kind: 'adjustment' as const,
      day: '2026-10-05',
      offer: null,
      lead_id: null,
      call_id: null,
      duration_seconds: null,
      amount: 1234.5,
      description: 'Correction: Ñandú – “Solar” 太阳\r\nsecond line',
    };
    const bytes = await renderStatementPdf({
      payout_id: '00000000-0000-4000-8000-000000000000',
      number: 'ST-2026-000007',
      run_id: null,
      publisher_name: 'Zoë Müller',
      publisher_email: 'zoe@example.test',
      date: '2026-11-03T15:00:00.000Z',
      issued_on: '2026-11-03',
      status: 'recorded',
      reference: null,
      period_from: null,
      period_to: null,
      period_label: 'All unpaid calls up to 2026-11-03',
      timezone: 'Asia/Kolkata',
      lines: [line],
      sections: [{ kind: 'adjustment', title: 'Adjustments', count: 1, subtotal: 1234.5 }],
      total: 1234.5,
      currency: 'INR',
      network: { name: 'Mumbai Calls', support_email: 'help@mumbai.example', address: null },
    });
    const [text] = await pdfText(bytes);
    for (const part of [
      'Zoë Müller',
      'Correction: Ñandú',
      'second line',
      '??',
      'INR 1,234.50',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(part);
    }
  });
});
