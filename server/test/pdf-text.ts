import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFRef, type PDFStream } from 'pdf-lib';

/**
 * The text drawn on each page of a PDF, as a reader would see it line by line: the page content
 * streams are inflated and the strings of their text operators (Tj) decoded. Enough to check a
 * statement written with pdf-lib's standard fonts (WinAnsi hex strings); not a general extractor.
 */
export async function pdfText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const pages: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs: PDFRef[] =
      contents instanceof PDFArray ? (contents.asArray() as PDFRef[]) : [contents as PDFRef];
    let text = '';
    for (const ref of refs) {
      const stream = pdf.context.lookup(ref) as PDFStream;
      const raw = stream instanceof PDFRawStream ? stream.contents : new Uint8Array();
      const filter = stream.dict.get(PDFName.of('Filter'));
      const body = Buffer.from(filter ? inflateSync(raw) : raw).toString('latin1');
      for (const line of body.split('\n')) {
        const hex = /^<([0-9A-Fa-f]*)> Tj$/.exec(line.trim());
        const lit = /^\((.*)\) Tj$/.exec(line.trim());
        if (hex)
          text += `${Buffer.from(hex[1]!, 'hex').toString('latin1').replace(/\x80/g, '€')}\n`;
        else if (lit) text += `${lit[1]!.replace(/\\([()\\])/g, '$1')}\n`;
      }
    }
    pages.push(text);
  }
  return pages;
}

/** One string drawn on a page: where its baseline starts, its font (without pdf-lib's suffix) and size. */
export type PdfTextItem = {
  page: number;
  x: number;
  y: number;
  font: string;
  size: number;
  text: string;
};

/**
 * Every string drawn (Tj) with its page, position (the Tm before it) and font (Tf), in drawing
 * order: enough to check a layout written by pdf-lib's drawText (columns, wrapping, order).
 */
export async function pdfTextItems(bytes: Uint8Array): Promise<PdfTextItem[]> {
  const pdf = await PDFDocument.load(bytes);
  const items: PdfTextItem[] = [];
  pdf.getPages().forEach((page, index) => {
    const contents = page.node.get(PDFName.of('Contents'));
    const refs: PDFRef[] =
      contents instanceof PDFArray ? (contents.asArray() as PDFRef[]) : [contents as PDFRef];
    let font = '';
    let size = 0;
    let x = 0;
    let y = 0;
    for (const ref of refs) {
      const stream = pdf.context.lookup(ref) as PDFStream;
      const raw = stream instanceof PDFRawStream ? stream.contents : new Uint8Array();
      const filter = stream.dict.get(PDFName.of('Filter'));
      const body = Buffer.from(filter ? inflateSync(raw) : raw).toString('latin1');
      for (const line of body.split('\n').map((l) => l.trim())) {
        const tf = /^\/(\S+?)(?:-\d+)? ([\d.]+) Tf$/.exec(line);
        const tm = /^[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ ([-\d.]+) ([-\d.]+) Tm$/.exec(line);
        const hex = /^<([0-9A-Fa-f]*)> Tj$/.exec(line);
        const lit = /^\((.*)\) Tj$/.exec(line);
        if (tf) [font, size] = [tf[1]!, Number(tf[2])];
        else if (tm) [x, y] = [Number(tm[1]), Number(tm[2])];
        else if (hex || lit) {
          const text = hex
            ? Buffer.from(hex[1]!, 'hex').toString('latin1').replace(/\x80/g, '€')
            : lit![1]!.replace(/\\([()\\])/g, '$1');
          items.push({ page: index + 1, x, y, font, size, text });
        }
      }
    }
  });
  return items;
}
