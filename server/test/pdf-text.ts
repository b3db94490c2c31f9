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
