import { crc32 } from 'node:zlib';

/**
 * Small but real files for the demo, made in code: PDFs and Word documents with readable text,
 * MP3 call recordings (silent MPEG audio frames) and MP4 files carrying that audio in a proper
 * ISO container, so the admin's compliance page can open and play them.
 */

/** Keeps text printable in a PDF's standard fonts and in latin1 tags. */
function toLatin1(text: string): string {
  return text
    .replace(/[‐-―]/g, '-')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/…/g, '...')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

function pdfString(text: string): string {
  return `(${toLatin1(text).replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** A one-page US-letter PDF: a bold title, then lines of text (wrapped at ~95 characters). */
export function makePdf(doc: { title: string; lines: readonly string[] }): Buffer {
  const wrapped: string[] = [];
  for (const line of doc.lines) {
    let rest = line;
    while (rest.length > 95) {
      const cut = rest.lastIndexOf(' ', 95);
      const at = cut > 20 ? cut : 95;
      wrapped.push(rest.slice(0, at));
      rest = rest.slice(at).trimStart();
    }
    wrapped.push(rest);
  }
  const body = wrapped
    .slice(0, 48)
    .map((l) => `${pdfString(l)} Tj T*`)
    .join('\n');
  const content =
    `BT /F2 16 Tf 56 730 Td ${pdfString(doc.title)} Tj ET\n` +
    `BT /F1 10.5 Tf 14 TL 56 700 Td\n${body}\nET\n`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(doc.title)} /Producer (npm run demo) >>`,
  ];
  return pdfOfObjects(objects, { header: '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', info: true });
}

/**
 * A PDF of these objects, numbered from 1 (the catalog first), with a correct cross-reference
 * table; with `info`, the last object is the document information dictionary.
 */
export function pdfOfObjects(
  objects: string[],
  opts: { header: string; info?: boolean } = { header: '%PDF-1.4\n' },
): Buffer {
  let out = opts.header;
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  const info = opts.info ? ` /Info ${objects.length} 0 R` : '';
  out +=
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info} >>\n` +
    `startxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

// MPEG-1 Layer III, 32 kbit/s, 32 kHz, mono: every frame is exactly 144 bytes and 36 ms long.
const MP3_SAMPLE_RATE = 32_000;
const MP3_SAMPLES_PER_FRAME = 1152;
const MP3_FRAME_BYTES = 144;

/** `seconds` of silent MP3 frames (zero side info and no main data decode as silence). */
function mp3Frames(seconds: number): Buffer[] {
  const count = Math.max(1, Math.ceil((seconds * MP3_SAMPLE_RATE) / MP3_SAMPLES_PER_FRAME));
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  // sync + MPEG-1 + Layer III + no CRC | bitrate 32k, 32 kHz | mono, original.
  frame.set([0xff, 0xfb, 0x18, 0xc4]);
  return Array.from({ length: count }, () => frame);
}

function id3TextFrame(id: string, text: string): Buffer {
  const value = Buffer.from(`\0${toLatin1(text)}`, 'latin1'); // encoding byte 0: ISO-8859-1
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(value.length, 4);
  return Buffer.concat([head, value]);
}

/** An ID3v2.3 tag; its size is a "syncsafe" integer (7 bits per byte). */
function id3Tag(tags: { title: string; artist: string }): Buffer {
  const frames = Buffer.concat([
    id3TextFrame('TIT2', tags.title),
    id3TextFrame('TPE1', tags.artist),
  ]);
  const n = frames.length;
  const head = Buffer.from([
    0x49,
    0x44,
    0x33,
    3,
    0,
    0,
    (n >> 21) & 0x7f,
    (n >> 14) & 0x7f,
    (n >> 7) & 0x7f,
    n & 0x7f,
  ]);
  return Buffer.concat([head, frames]);
}

/** An MP3 "call recording" of the given length, tagged with a title and artist. */
export function makeMp3(opts: { seconds: number; title: string; artist: string }): Buffer {
  return Buffer.concat([id3Tag(opts), ...mp3Frames(opts.seconds)]);
}

function u8(n: number): Buffer {
  return Buffer.from([n & 0xff]);
}
function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
function box(type: string, ...parts: Buffer[]): Buffer {
  const payload = Buffer.concat(parts);
  return Buffer.concat([u32(8 + payload.length), Buffer.from(type, 'latin1'), payload]);
}
/** A "full box": version and flags come first. */
function fullBox(type: string, version: number, flags: number, ...parts: Buffer[]): Buffer {
  return box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...parts);
}
/** An MPEG-4 descriptor (tag, one-byte length, body); our bodies are all under 128 bytes. */
function descriptor(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u8(tag), u8(body.length), body]);
}

const UNITY_MATRIX = Buffer.concat(
  [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map((v) => u32(v)),
);

function mp4Moov(frameCount: number, mdatPayloadOffset: number): Buffer {
  const samples = frameCount * MP3_SAMPLES_PER_FRAME;
  const durationMs = Math.round((samples * 1000) / MP3_SAMPLE_RATE);
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0), // creation time
    u32(0), // modification time
    u32(1000), // timescale: milliseconds
    u32(durationMs),
    u32(0x00010000), // rate 1.0
    u16(0x0100), // volume 1.0
    Buffer.alloc(10),
    UNITY_MATRIX,
    Buffer.alloc(24),
    u32(2), // next track id
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    0x000007, // enabled, in movie, in preview
    u32(0),
    u32(0),
    u32(1), // track id
    u32(0),
    u32(durationMs),
    Buffer.alloc(8),
    u16(0), // layer
    u16(1), // alternate group (audio)
    u16(0x0100), // volume
    u16(0),
    UNITY_MATRIX,
    u32(0), // width
    u32(0), // height
  );
  const mdhd = fullBox(
    'mdhd',
    0,
    0,
    u32(0),
    u32(0),
    u32(MP3_SAMPLE_RATE),
    u32(samples),
    u16(0x55c4), // language 'und'
    u16(0),
  );
  const hdlr = fullBox(
    'hdlr',
    0,
    0,
    u32(0),
    Buffer.from('soun', 'latin1'),
    Buffer.alloc(12),
    Buffer.from('SoundHandler\0', 'latin1'),
  );
  const esds = fullBox(
    'esds',
    0,
    0,
    descriptor(
      0x03, // ES_Descriptor
      u16(1), // ES id
      u8(0),
      descriptor(
        0x04, // DecoderConfigDescriptor
        u8(0x6b), // object type: MPEG-1 audio (MP3)
        u8((0x05 << 2) | 1), // stream type: audio
        Buffer.from([0, 0x02, 0x00]), // buffer size
        u32(32_000), // max bitrate
        u32(32_000), // average bitrate
      ),
      descriptor(0x06, u8(0x02)), // SLConfigDescriptor, predefined for MP4
    ),
  );
  const mp4a = box(
    'mp4a',
    Buffer.alloc(6),
    u16(1), // data reference index
    Buffer.alloc(8),
    u16(1), // channels
    u16(16), // sample size
    u16(0),
    u16(0),
    u32(MP3_SAMPLE_RATE << 16),
    esds,
  );
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), mp4a),
    fullBox('stts', 0, 0, u32(1), u32(frameCount), u32(MP3_SAMPLES_PER_FRAME)),
    fullBox('stsc', 0, 0, u32(1), u32(1), u32(frameCount), u32(1)),
    fullBox('stsz', 0, 0, u32(MP3_FRAME_BYTES), u32(frameCount)),
    fullBox('stco', 0, 0, u32(1), u32(mdatPayloadOffset)),
  );
  const minf = box(
    'minf',
    fullBox('smhd', 0, 0, u16(0), u16(0)),
    box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1))),
    stbl,
  );
  return box('moov', mvhd, box('trak', tkhd, box('mdia', mdhd, hdlr, minf)));
}

/** An MP4 (ISO base media, audio track with MP3 inside) of the given length. */
export function makeMp4(opts: { seconds: number }): Buffer {
  const frames = mp3Frames(opts.seconds);
  const ftyp = box(
    'ftyp',
    Buffer.from('isom', 'latin1'),
    u32(0x200),
    Buffer.from('isomiso2mp41', 'latin1'),
  );
  // The moov box has the same size whatever offset it records, so measure it once first.
  const moovSize = mp4Moov(frames.length, 0).length;
  const moov = mp4Moov(frames.length, ftyp.length + moovSize + 8);
  return Buffer.concat([ftyp, moov, box('mdat', ...frames)]);
}

function xmlEscape(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A zip archive with stored (uncompressed) entries, which every Office reader accepts (the test fixtures use it too). */
export function zipStored(entries: readonly { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed to extract
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0, 8); // method: stored
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date: 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4); // made by
    dir.writeUInt16LE(20, 6); // needed
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt16LE(0, 10);
    dir.writeUInt16LE(0, 12);
    dir.writeUInt16LE(0x21, 14);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(entry.data.length, 20);
    dir.writeUInt32LE(entry.data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    parts.push(local, name, entry.data);
    central.push(dir, name);
    offset += local.length + name.length + entry.data.length;
  }
  const dirBytes = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dirBytes.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, dirBytes, end]);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** A Word (.docx) document: a bold title, then one paragraph per line. */
export function makeDocx(doc: { title: string; lines: readonly string[] }): Buffer {
  const para = (text: string, bold = false) =>
    `<w:p><w:r>${bold ? '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr>' : ''}` +
    `<w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;
  const body = [para(doc.title, true), ...doc.lines.map((l) => para(l))].join('');
  return docxOfBody(body);
}

/** A .docx whose document body is `bodyXml` (WordprocessingML paragraphs). */
export function docxOfBody(bodyXml: string): Buffer {
  return zipStored([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
          '</Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
          '</Relationships>',
      ),
    },
    {
      name: 'word/document.xml',
      data: Buffer.from(
        `${XML_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
          `<w:body>${bodyXml}</w:body></w:document>`,
      ),
    },
  ]);
}
