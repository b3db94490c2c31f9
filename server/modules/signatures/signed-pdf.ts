import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { DocumentEvent } from '../../../contract/documents.ts';
import { wrapText } from '../money/index.ts';

/**
 * The signed copy of a document: the original's pages untouched, then a signature page (who
 * signed, the consent they gave, the hash of what they were shown) and an audit certificate
 * (every event of the document's life with its time, address and browser). Sealing it is
 * `seal.ts`'s job.
 */

export type SignedCopyFacts = {
  companyName: string;
  documentId: string;
  title: string;
  kind: 'agreement' | 'io';
  version: number;
  publisherName: string;
  fullName: string;
  email: string;
  signedAt: Date;
  ip: string;
  userAgent: string;
  consentText: string;
  shownSha256: string;
  events: DocumentEvent[];
};

// A4 portrait, in points.
export const W = 595.28;
const H = 841.89;
const M = 50;
const INK = rgb(0.11, 0.12, 0.14);
const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.84, 0.86, 0.89);

/** Writes lines down a page, opening a new one at the bottom. */
export class Writer {
  page!: PDFPage;
  y = 0;
  constructor(
    private pdf: PDFDocument,
    private font: PDFFont,
    private bold: PDFFont,
  ) {
    this.newPage();
  }
  newPage() {
    this.page = this.pdf.addPage([W, H]);
    this.y = H - M;
  }
  text(t: string, o: { size?: number; bold?: boolean; color?: typeof INK; indent?: number } = {}) {
    const size = o.size ?? 10;
    const font = o.bold ? this.bold : this.font;
    const x = M + (o.indent ?? 0);
    for (const line of wrapText(t, font, size, W - M - x)) {
      if (this.y < M + size) this.newPage();
      this.page.drawText(line, { x, y: this.y - size, size, font, color: o.color ?? INK });
      this.y -= size * 1.35;
    }
  }
  field(label: string, value: string) {
    this.text(label, { size: 8, color: MUTED });
    this.text(value, { size: 10 });
    this.y -= 4;
  }
  gap(n = 10) {
    this.y -= n;
  }
  rule() {
    this.page.drawLine({
      start: { x: M, y: this.y },
      end: { x: W - M, y: this.y },
      thickness: 0.7,
      color: RULE,
    });
    this.y -= 10;
  }
}

const utc = (d: Date | string) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

const EVENT_NAMES: Record<DocumentEvent['type'], string> = {
  sent: 'Sent for signature',
  viewed: 'Opened by the signer',
  signed: 'Signed',
  reminded: 'Reminder sent',
  superseded: 'Replaced by a new version',
};

/** The original with the signature page and the audit certificate appended (not yet sealed). */
export async function buildSignedCopy(
  original: Uint8Array,
  f: SignedCopyFacts,
): Promise<PDFDocument> {
  const pdf = await PDFDocument.load(original);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const kind = f.kind === 'io' ? 'Insertion order' : 'Agreement';

  const w = new Writer(pdf, font, bold);
  w.text('Signature page', { size: 18, bold: true });
  w.text(`${kind} "${f.title}", version ${f.version}`, { size: 11, color: MUTED });
  w.gap();
  w.rule();
  w.text(`Signed electronically by ${f.fullName}`, { size: 14, bold: true });
  w.gap(6);
  w.field('Full legal name, as typed by the signer', f.fullName);
  w.field('Account e-mail', f.email);
  w.field('Publisher account', f.publisherName);
  w.field('Signed at', utc(f.signedAt));
  w.field('From the address', f.ip);
  w.field('Browser', f.userAgent);
  w.field('SHA-256 of the document shown to the signer', f.shownSha256);
  w.gap(4);
  w.text('Consent given by the signer', { size: 8, color: MUTED });
  w.text(f.consentText, { size: 10 });
  w.gap();
  w.rule();
  w.text(
    `This copy is sealed by ${f.companyName} with a digital signature: a PDF reader shows ` +
      'whether it was changed after signing. The audit certificate follows.',
    { size: 9, color: MUTED },
  );

  w.newPage();
  w.text('Audit certificate', { size: 18, bold: true });
  w.text(`Document ${f.documentId}`, { size: 9, color: MUTED });
  w.gap();
  w.field('Document', `${kind} "${f.title}", version ${f.version}`);
  w.field('SHA-256 of the original document', f.shownSha256);
  w.field('Signer', `${f.fullName} <${f.email}>`);
  w.gap(4);
  w.rule();
  w.text('Events', { size: 12, bold: true });
  w.gap(4);
  for (const e of f.events) {
    w.text(`${utc(e.at)}   ${EVENT_NAMES[e.type]}`, { size: 10, bold: true });
    const who = [e.actor_email, e.ip && `address ${e.ip}`].filter(Boolean).join(', ');
    if (who) w.text(who, { size: 9, indent: 12 });
    if (e.user_agent) w.text(e.user_agent, { size: 8, color: MUTED, indent: 12 });
    w.gap(4);
  }
  return pdf;
}
