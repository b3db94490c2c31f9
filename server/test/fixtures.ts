import { crc32, deflateSync } from 'node:zlib';
import CFB from 'cfb';
import sharp from 'sharp';
import { docxOfBody, makeMp3, makeMp4, pdfOfObjects } from '../demo/demo-files.ts';

/**
 * Small, real files for upload tests, made in code. Each parses as what its name says (media
 * with a duration, a PDF with a page, a Word document, decodable images, a clean SVG), so the
 * storage module accepts it for that extension; the polyglots below must be refused.
 */

function u32be(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32be(data.length), body, u32be(crc32(body))]);
}

/** A valid 1×1 red PNG. */
export const pngFile: Buffer = (() => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const scanline = Buffer.from([0, 0xe0, 0x30, 0x30, 0xff]); // filter byte + one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(scanline)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
})();

function jpegSegment(marker: number, data: number[]): number[] {
  const len = data.length + 2;
  return [0xff, marker, len >> 8, len & 0xff, ...data];
}

/**
 * A valid baseline 1×1 grey JPEG: one 8×8 block whose DC and AC coefficients are all zero,
 * coded with one-symbol Huffman tables (code '0' for DC category 0 and for end-of-block).
 */
export const jpgFile: Buffer = Buffer.from([
  0xff,
  0xd8, // SOI
  ...jpegSegment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // APP0 JFIF
  ...jpegSegment(0xdb, [0x00, ...new Array<number>(64).fill(1)]), // DQT table 0
  ...jpegSegment(0xc0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0]), // SOF0 1×1, one component
  ...jpegSegment(0xc4, [0x00, 1, ...new Array<number>(15).fill(0), 0x00]), // DHT DC0: '0' → 0
  ...jpegSegment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]), // DHT AC0: '0' → EOB
  ...jpegSegment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
  0x3f, // bits 0 (DC diff 0), 0 (EOB), padded with ones
  0xff,
  0xd9, // EOI
]);

/** A valid one-page PDF with a correct cross-reference table. */
export const pdfFile: Buffer = pdfOfObjects([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  '<< /Length 44 >>\nstream\nBT /F1 18 Tf 20 100 Td (Test file) Tj ET\nendstream',
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
]);

/** A one-second MP3 (an ID3v2 tag and a real MPEG-1 Layer III frame sequence): it has a duration. */
export const mp3File: Buffer = makeMp3({ seconds: 1, title: 'Test call', artist: 'Test' });

/** A one-second MP4 (ftyp, moov with a real AAC track table, mdat): it has a duration. */
export const mp4File: Buffer = makeMp4({ seconds: 1 });

/** A minimal Word document (.docx): the Open XML parts Word itself needs. */
export const docxFile: Buffer = docxOfBody('<w:p><w:r><w:t>Test file</w:t></w:r></w:p>');

/**
 * A Word 97-2003 (.doc) document: an OLE compound file with a WordDocument stream that starts
 * with a File Information Block (wIdent 0xA5EC, nFib 0x00C1 = Word 97) and its 1Table stream.
 */
export const docFile: Buffer = (() => {
  const fib = Buffer.alloc(1472);
  fib.writeUInt16LE(0xa5ec, 0); // wIdent
  fib.writeUInt16LE(0x00c1, 2); // nFib: Word 97
  fib.writeUInt16LE(0x0409, 6); // lid: English (US)
  fib.writeUInt16LE(0x0200, 10); // flags: fWhichTblStm = 1 (the table is 1Table)
  fib.writeUInt16LE(0x00bf, 12); // nFibBack
  const text = Buffer.from('Test file\r', 'latin1');
  const word = Buffer.concat([fib, text]);
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/WordDocument', word);
  CFB.utils.cfb_add(container, '/1Table', Buffer.alloc(512));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
})();

/** Any OLE container that is not a Word document (here: only an Excel-like Workbook stream). */
export const oleNotWordFile: Buffer = (() => {
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/Workbook', Buffer.alloc(1024, 1));
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
})();

/** A plain SVG logo. */
export const svgFile: Buffer = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40">' +
    '<rect width="120" height="40" rx="6" fill="#1c7ed6"/>' +
    '<text x="60" y="26" font-family="sans-serif" font-size="16" fill="#fff" text-anchor="middle">LOGO</text>' +
    '</svg>\n',
);

/** SVGs that must be refused because they could run script. */
export const unsafeSvgFiles: Record<string, Buffer> = {
  script: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
  ),
  onload: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>'),
  javascriptHref: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="  java&#x73;cript:alert(1)"><rect width="9" height="9"/></a></svg>',
  ),
  foreignObject: Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://example.com"/></foreignObject></svg>',
  ),
  entity: Buffer.from(
    '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>',
  ),
};

/** Text pretending to be anything else. */
export const textFile: Buffer = Buffer.from(
  'This is just some text, not a media file.\n'.repeat(20),
);

/** The start of a Windows executable (MZ header). */
export const exeFile: Buffer = (() => {
  const b = Buffer.alloc(512);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
})();

function mp4Box(type: string, payload: Buffer): Buffer {
  return Buffer.concat([u32be(8 + payload.length), Buffer.from(type, 'latin1'), payload]);
}

/** Files that only look like what their name says (issue 11): each must be refused. */
export const polyglotFiles = {
  /** An ID3 tag followed by a Windows executable. */
  id3ThenExe: Buffer.concat([Buffer.from('ID3\x03\0\0\0\0\0\0', 'latin1'), exeFile]),
  /** An MP4 box header with no track: no duration. */
  mp4NoTrack: Buffer.concat([
    mp4Box(
      'ftyp',
      Buffer.concat([
        Buffer.from('isom', 'latin1'),
        u32be(0x200),
        Buffer.from('isomiso2', 'latin1'),
      ]),
    ),
    mp4Box('mdat', Buffer.alloc(64)),
  ]),
  /** '%PDF-' followed by an HTML page. */
  pdfThenHtml: Buffer.from('%PDF-1.4\n<html><body><script>alert(1)</script></body></html>\n'),
  /** A valid PNG with an HTML page after its end. */
  pngThenHtml: Buffer.concat([pngFile, Buffer.from('<html><script>alert(1)</script></html>')]),
};

/**
 * True when two images show the same pixels. Uploaded PNG and JPG files are re-encoded, so a
 * served image is the same picture as the uploaded one, not the same bytes.
 */
export async function samePicture(a: Buffer, b: Buffer): Promise<boolean> {
  const [x, y] = await Promise.all(
    [a, b].map((img) => sharp(img).ensureAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  return (
    x!.info.width === y!.info.width && x!.info.height === y!.info.height && x!.data.equals(y!.data)
  );
}
