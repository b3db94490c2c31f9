import {
  type Color,
  PDFDocument,
  type PDFFont,
  type PDFImage,
  type PDFPage,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import { formatCurrency, type LineKind, type Statement } from '../../../contract/money.ts';

/**
 * The payout statement as a PDF an accountant accepts (issue 27): the network's name, logo,
 * postal address and support e-mail; the statement's number, period and publisher; a summary of
 * its sections; then one row per call, reversal, adjustment, advance and credit, each section
 * with its subtotal and count, and the total with its counts. Every page has its number
 * ("Page 2 of 5") and, inside a table, the table's header again. Cells wrap by the measured
 * width of their text, so nothing runs into the next column.
 */

/** How each kind of line is named: its section's title, one line, several lines. */
export const KIND_NAMES: Record<LineKind, { title: string; one: string; many: string }> = {
  lead: { title: 'Calls', one: 'call', many: 'calls' },
  reversal: { title: 'Reversals', one: 'reversal', many: 'reversals' },
  adjustment: { title: 'Adjustments', one: 'adjustment', many: 'adjustments' },
  advance: { title: 'Advances', one: 'advance', many: 'advances' },
  credit: { title: 'Credits', one: 'credit', many: 'credits' },
};

/** "1,234 calls", "1 reversal": a count with its noun, as the statement prints it. */
export function countText(kind: LineKind, n: number): string {
  const names = KIND_NAMES[kind];
  return `${n.toLocaleString('en-US')} ${n === 1 ? names.one : names.many}`;
}

/** m:ss (75:05 past an hour): a call's length as the statement prints it. */
export function durationText(seconds: number | null): string {
  if (seconds === null) return '';
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export type StatementLogo = { bytes: Uint8Array; type: string };

// A4 portrait, in points.
const W = 595.28;
const H = 841.89;
const M = 42;
const CONTENT = W - 2 * M;
/** The lowest a row may reach: below it, the footer. */
const BOTTOM = 56;
const SIZE = 8.5;
const LINE = 11;
const PAD = 3.5;
/** Space kept free between two columns. */
const GUTTER = 8;

const INK = rgb(0.11, 0.12, 0.14);
const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.84, 0.86, 0.89);
const BAND = rgb(0.94, 0.95, 0.965);

type Align = 'left' | 'right';
type Column = { title: string; width: number; align: Align };

const col = (title: string, width: number, align: Align = 'left'): Column => ({
  title,
  width,
  align,
});

/** Calls and reversals: date, offer, call id, duration, amount. */
const CALL_COLUMNS = [
  col('Date', 56),
  col('Offer', 176),
  // Wide enough for a tracker's call id on one line (Ringba's are 34 characters).
  col('Call ID', 172),
  col('Duration', 42, 'right'),
  col('Amount', CONTENT - 56 - 176 - 172 - 42, 'right'),
];
/** Adjustments, advances and credits: date, description, amount. */
const OTHER_COLUMNS = [
  col('Date', 56),
  col('Description', CONTENT - 56 - 72),
  col('Amount', 72, 'right'),
];
const SUMMARY_COLUMNS = [
  col('Section', CONTENT - 110 - 100),
  col('Count', 110, 'right'),
  col('Amount', 100, 'right'),
];

/**
 * pdf-lib's standard fonts write WinAnsi (Latin-1 and a few typographic marks) only: anything
 * else becomes '?'; tabs and other spaces become a space, CR LF a line break.
 */
const winAnsi = (s: string) =>
  s
    .replace(/\r\n?/g, '\n')
    .replace(/[\t\u2000-\u200b\u202f\u205f\u3000]/g, ' ')
    .replace(/[^\n\x20-\x7e\u00a0-\u00ff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');

/**
 * Splits text into lines no wider than `width` at `size`, by measured width: at spaces first,
 * and inside a word only when the word alone is wider than the column (long call ids).
 */
export function wrapText(text: string, font: PDFFont, size: number, width: number): string[] {
  const fits = (t: string) => font.widthOfTextAtSize(t, size) <= width;
  const out: string[] = [];
  for (const paragraph of winAnsi(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ').filter(Boolean)) {
      const joined = line ? `${line} ${word}` : word;
      if (fits(joined)) {
        line = joined;
        continue;
      }
      if (line) out.push(line);
      let rest = word;
      while (!fits(rest)) {
        // The longest head of the word that fits (at least one character, or nothing ends).
        let lo = 1;
        let hi = rest.length - 1;
        while (lo < hi) {
          const mid = Math.ceil((lo + hi) / 2);
          if (fits(rest.slice(0, mid))) lo = mid;
          else hi = mid - 1;
        }
        out.push(rest.slice(0, lo));
        rest = rest.slice(lo);
      }
      line = rest;
    }
    out.push(line);
  }
  while (out.length > 1 && out.at(-1) === '') out.pop();
  return out;
}

type TextOpts = { font?: PDFFont; size?: number; color?: Color };

/** Pages, fonts and the pen's height; a new page repeats the running header and table header. */
class StatementWriter {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = 0;
  /** The table being written, to draw its header again on the next page. */
  table: { title: string; columns: Column[] } | null = null;

  constructor(
    readonly pdf: PDFDocument,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    readonly s: Statement,
  ) {}

  /** The font set on each page: drawText given a font registers it on the page once per call. */
  private readonly pageFonts = new Map<PDFPage, PDFFont>();

  text(t: string, x: number, y: number, o: TextOpts = {}) {
    const font = o.font ?? this.font;
    if (this.pageFonts.get(this.page) !== font) {
      this.page.setFont(font);
      this.pageFonts.set(this.page, font);
    }
    this.page.drawText(winAnsi(t), { x, y, size: o.size ?? SIZE, color: o.color ?? INK });
  }

  /** Text ending at `xr`. */
  right(t: string, xr: number, y: number, o: TextOpts = {}) {
    const f = o.font ?? this.font;
    this.text(t, xr - f.widthOfTextAtSize(winAnsi(t), o.size ?? SIZE), y, o);
  }

  rule(y: number, color: Color = RULE, thickness = 0.6) {
    this.page.drawLine({ start: { x: M, y }, end: { x: W - M, y }, thickness, color });
  }

  addPage() {
    this.page = this.pdf.addPage([W, H]);
    this.pages.push(this.page);
    this.y = H - M;
    if (this.pages.length === 1) return;
    // Continuation pages: which statement this is, then the table's header again.
    const title = `Payout statement ${this.s.number ?? ''}`.trim();
    const who = this.s.publisher_name ?? this.s.publisher_email;
    this.text(`${title} · ${who}`, M, this.y, { size: 8, color: MUTED });
    this.right(this.s.network.name, W - M, this.y, { size: 8, color: MUTED });
    this.y -= 6;
    this.rule(this.y);
    this.y -= 18;
    if (this.table) {
      this.heading(`${this.table.title} (continued)`);
      this.header(this.table.columns);
    }
  }

  /** Starts a new page unless `height` points still fit above the footer. */
  ensure(height: number) {
    if (this.y - height < BOTTOM) this.addPage();
  }

  heading(t: string) {
    this.text(t, M, this.y - 11, { font: this.bold, size: 11 });
    this.y -= 19;
  }

  header(columns: Column[]) {
    const h = LINE + 2 * PAD;
    this.page.drawRectangle({ x: M, y: this.y - h, width: CONTENT, height: h, color: BAND });
    let x = M;
    for (const c of columns) {
      const baseline = this.y - PAD - 8;
      if (c.align === 'right') this.right(c.title, x + c.width, baseline, { font: this.bold });
      else this.text(c.title, x, baseline, { font: this.bold });
      x += c.width;
    }
    this.y -= h;
  }

  /** Wrapped cells by font, width and text: offer names repeat on many rows. */
  private readonly wraps = new Map<string, string[]>();

  /** The lines of each cell, wrapped to its column (minus the gutter). */
  cells(columns: Column[], values: string[], font: PDFFont): string[][] {
    return columns.map((c, i) => {
      const text = values[i] ?? '';
      const key = `${font === this.bold ? 'b' : 'r'}:${c.width}:${text}`;
      let lines = this.wraps.get(key);
      if (!lines) {
        lines = wrapText(text, font, SIZE, c.width - GUTTER);
        this.wraps.set(key, lines);
      }
      return lines;
    });
  }

  rowHeight(lines: string[][]) {
    return Math.max(...lines.map((l) => l.length)) * LINE + 2 * PAD;
  }

  /**
   * One table row; a row taller than the space left goes to the next page whole, or, taller
   * than a page, continues there line by line.
   */
  row(columns: Column[], values: string[], o: { bold?: boolean; topRule?: boolean } = {}) {
    const font = o.bold ? this.bold : this.font;
    const lines = this.cells(columns, values, font);
    const total = Math.max(...lines.map((l) => l.length));
    const fullPage = H - M - 60 - BOTTOM;
    let from = 0;
    while (from < total) {
      const left = total - from;
      let room = Math.floor((this.y - BOTTOM - 2 * PAD) / LINE);
      if (room < left && (left * LINE + 2 * PAD <= fullPage || room < 1)) {
        this.addPage();
        room = Math.floor((this.y - BOTTOM - 2 * PAD) / LINE);
      }
      const take = Math.min(left, room);
      if (o.topRule && from === 0) this.rule(this.y, INK, 0.8);
      let x = M;
      columns.forEach((c, i) => {
        lines[i]!.slice(from, from + take).forEach((t, k) => {
          const baseline = this.y - PAD - 8 - k * LINE;
          if (c.align === 'right') this.right(t, x + c.width, baseline, { font });
          else this.text(t, x, baseline, { font });
        });
        x += c.width;
      });
      this.y -= take * LINE + 2 * PAD;
      if (!o.topRule) this.rule(this.y);
      from += take;
    }
  }
}

/**
 * Money with the currency's symbol (formatCurrency, as on screen), or with its code when the
 * symbol is not in WinAnsi (₹): `INR 1,234.50`.
 */
export function moneyFormat(currency: string): (v: number) => string {
  const sample = formatCurrency(1, currency);
  if (winAnsi(sample) === sample) return (v) => formatCurrency(v, currency);
  const f = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return (v) => `${currency} ${f.format(v)}`;
}

async function embedLogo(pdf: PDFDocument, logo?: StatementLogo): Promise<PDFImage | undefined> {
  try {
    if (logo?.type === 'image/png') return await pdf.embedPng(logo.bytes);
    if (logo?.type === 'image/jpeg') return await pdf.embedJpg(logo.bytes);
  } catch {
    // An unreadable logo leaves the name alone at the top.
  }
  return undefined;
}

/** The statement as a PDF (A4): see the module comment. */
export async function renderStatementPdf(s: Statement, logo?: StatementLogo): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Payout statement ${s.number ?? s.payout_id}`);
  pdf.setAuthor(s.network.name);
  pdf.setSubject(`Payout statement of ${s.publisher_name ?? s.publisher_email}`);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const image = await embedLogo(pdf, logo);
  const w = new StatementWriter(pdf, font, bold, s);
  const money = moneyFormat(s.currency);
  w.addPage();

  // The network: logo on the right, name, postal address and support e-mail on the left.
  let logoBottom = w.y;
  let textWidth = CONTENT;
  if (image) {
    const scale = Math.min(150 / image.width, 54 / image.height, 1);
    const [iw, ih] = [image.width * scale, image.height * scale];
    w.page.drawImage(image, { x: W - M - iw, y: w.y - ih, width: iw, height: ih });
    logoBottom = w.y - ih;
    textWidth = CONTENT - iw - 16;
  }
  for (const t of wrapText(s.network.name, bold, 16, textWidth)) {
    w.text(t, M, w.y - 14, { font: bold, size: 16 });
    w.y -= 19;
  }
  const address = (s.network.address ?? '').split(/\r?\n/).map((l) => l.trim());
  for (const part of address.filter(Boolean)) {
    for (const t of wrapText(part, font, 9, textWidth)) {
      w.text(t, M, w.y - 9, { size: 9, color: MUTED });
      w.y -= 11.5;
    }
  }
  w.text(`Support: ${s.network.support_email}`, M, w.y - 9, { size: 9, color: MUTED });
  w.y = Math.min(w.y - 11.5, logoBottom) - 12;
  w.rule(w.y);
  w.y -= 28;

  // The statement: title and number, then who, when and what it covers.
  w.text('Payout statement', M, w.y, { font: bold, size: 18 });
  if (s.number) w.right(s.number, W - M, w.y, { font: bold, size: 14 });
  w.y -= 22;
  const status =
    s.status === 'paid'
      ? `Paid${s.reference ? `, reference ${s.reference}` : ''}`
      : 'Recorded in a payout run, not yet paid';
  const facts: [string, string][] = [
    ['Statement no.', s.number ?? `Payout ${s.payout_id}`],
    ['Publisher', s.publisher_name ?? s.publisher_email],
    ['E-mail', s.publisher_email],
    ['Issued', s.issued_on],
    ['Period', s.period_label],
    ['Status', status],
  ];
  const labelWidth = 78;
  for (const [label, value] of facts) {
    const values = wrapText(value, font, 9.5, CONTENT - labelWidth);
    w.text(label, M, w.y - 9.5, { size: 9.5, color: MUTED });
    values.forEach((t, i) => {
      w.text(t, M + labelWidth, w.y - 9.5 - i * 12.5, { size: 9.5 });
    });
    w.y -= values.length * 12.5 + 1.5;
  }
  w.y -= 4;
  for (const t of wrapText(
    `Amounts in ${s.currency}. Dates are days in ${s.timezone}, the network's time zone. The total is the sum of the lines below.`,
    font,
    8,
    CONTENT,
  )) {
    w.text(t, M, w.y - 8, { size: 8, color: MUTED });
    w.y -= 10;
  }
  w.y -= 14;

  // Summary: each section's count and subtotal, and the total.
  const totalCounts = s.sections.map((x) => countText(x.kind, x.count)).join(', ');
  w.heading('Summary');
  w.header(SUMMARY_COLUMNS);
  w.table = { title: 'Summary', columns: SUMMARY_COLUMNS };
  for (const x of s.sections) {
    w.row(SUMMARY_COLUMNS, [x.title, countText(x.kind, x.count), money(x.subtotal)]);
  }
  w.row(SUMMARY_COLUMNS, [`Total: ${totalCounts}`, '', money(s.total)], {
    bold: true,
    topRule: true,
  });
  w.table = null;
  w.y -= 20;

  // The lines, section by section.
  for (const x of s.sections) {
    const isCall = x.kind === 'lead' || x.kind === 'reversal';
    const columns = isCall ? CALL_COLUMNS : OTHER_COLUMNS;
    const lines = s.lines.filter((l) => l.kind === x.kind);
    const values = lines.map((l) =>
      isCall
        ? [
            l.day ?? '',
            l.offer ?? '',
            l.call_id ?? '',
            durationText(l.duration_seconds),
            money(l.amount),
          ]
        : [l.day ?? '', l.description, money(l.amount)],
    );
    // The heading, the header and the first row stay together.
    const first = values[0] ? w.rowHeight(w.cells(columns, values[0], font)) : 0;
    w.ensure(19 + LINE + 2 * PAD + first);
    w.heading(`${x.title} (${countText(x.kind, x.count)})`);
    w.header(columns);
    w.table = { title: x.title, columns };
    for (const v of values) w.row(columns, v);
    const subtotal = ['', `Subtotal ${x.title.toLowerCase()}: ${countText(x.kind, x.count)}`];
    w.row(
      columns,
      isCall ? [...subtotal, '', '', money(x.subtotal)] : [...subtotal, money(x.subtotal)],
      { bold: true, topRule: true },
    );
    w.table = null;
    w.y -= 16;
  }

  // The total, with its counts.
  w.ensure(2 * LINE + 2 * PAD + 4);
  w.row(OTHER_COLUMNS, ['', `Total: ${totalCounts}`, money(s.total)], {
    bold: true,
    topRule: true,
  });

  // Page numbers, now that the count is known.
  const n = w.pages.length;
  w.pages.forEach((page, i) => {
    w.page = page;
    page.drawLine({
      start: { x: M, y: 40 },
      end: { x: W - M, y: 40 },
      thickness: 0.6,
      color: RULE,
    });
    const what = [s.network.name, s.number ? `Statement ${s.number}` : null];
    w.text(what.filter(Boolean).join(' · '), M, 28, { size: 8, color: MUTED });
    w.right(`Page ${i + 1} of ${n}`, W - M, 28, { size: 8, color: MUTED });
  });
  return pdf.save();
}
