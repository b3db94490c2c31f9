import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminTestContext, setupAdminTest } from '../test/admin-test.ts';
import {
  docFile,
  docxFile,
  jpgFile,
  mp3File,
  mp4File,
  oleNotWordFile,
  pdfFile,
  pngFile,
  polyglotFiles,
  samePicture,
  svgFile,
} from '../test/fixtures.ts';
import { stageUpload } from './file-check.ts';
import type { FileType } from './storage.ts';
import { sanitizeSvg } from './svg-check.ts';

// Issue 11 item 9: uploads are validated by parsing them, not by their first bytes.
const ALL: FileType[] = ['mp3', 'mp4', 'pdf', 'doc', 'docx', 'jpg', 'png', 'svg'];
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'file-parse-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const stage = (filename: string, bytes: Buffer) =>
  stageUpload({
    tmpDir: dir,
    bucket: 'compliance-questionnaires',
    filename,
    stream: Readable.from([bytes]),
    accept: ALL,
  });

describe('stageUpload parses what it accepts', () => {
  it.each([
    ['call.mp3', mp3File],
    ['call.mp4', mp4File],
    ['terms.pdf', pdfFile],
    ['terms.doc', docFile],
    ['terms.docx', docxFile],
    ['logo.png', pngFile],
    ['logo.jpg', jpgFile],
    ['logo.svg', svgFile],
  ])('accepts a real %s', async (name, bytes) => {
    const staged = await stage(name, bytes);
    expect(readFileSync(staged.tempPath).length).toBe(staged.size);
  });

  it.each([
    [
      'an ID3 tag followed by an executable',
      'call.mp3',
      polyglotFiles.id3ThenExe,
      'call.mp3 is not a real MP3 file.',
    ],
    [
      'an MP4 without a track',
      'call.mp4',
      polyglotFiles.mp4NoTrack,
      'call.mp4 has no playable audio or video (no duration).',
    ],
    [
      '%PDF followed by HTML',
      'terms.pdf',
      polyglotFiles.pdfThenHtml,
      'terms.pdf could not be read as a PDF document.',
    ],
    [
      'an OLE container that is not Word',
      'terms.doc',
      oleNotWordFile,
      'terms.doc is not a Word document (no WordDocument stream).',
    ],
    [
      'a PNG signature followed by text',
      'logo.png',
      Buffer.concat([pngFile.subarray(0, 16), Buffer.from('<html>')]),
      'logo.png could not be read as a PNG image.',
    ],
    ['a JPG renamed to PNG', 'logo.png', jpgFile, 'logo.png is not a real PNG file.'],
  ])('refuses %s with 415 and the reason', async (_what, name, bytes, reason) => {
    const err = await stage(name, bytes).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'unsupported_media_type' });
    expect((err as Error).message.startsWith(reason)).toBe(true);
  });

  it('re-encodes a PNG with an HTML page after its end: the page is gone, the picture stays', async () => {
    const staged = await stage('logo.png', polyglotFiles.pngThenHtml);
    const stored = readFileSync(staged.tempPath);
    expect(stored.includes(Buffer.from('<html>'))).toBe(false);
    expect(await samePicture(stored, pngFile)).toBe(true);
  });
});

describe('sanitizeSvg', () => {
  const svg = (body: string, attrs = '') =>
    `<svg xmlns="http://www.w3.org/2000/svg"${attrs}>${body}</svg>`;

  it.each([
    [
      'an xml-stylesheet',
      `<?xml-stylesheet href="https://evil.test/x.css"?>${svg('<rect/>')}`,
      'links an external style sheet (xml-stylesheet)',
    ],
    [
      'an external image',
      svg('<image href="https://evil.test/x.png"/>'),
      'links to a resource outside the file in <image> (https://evil.test/x.png)',
    ],
    [
      'an xlink:href to another file',
      svg('<use xlink:href="other.svg#a"/>', ' xmlns:xlink="http://www.w3.org/1999/xlink"'),
      'links to a resource outside the file in <use> (other.svg#a)',
    ],
    [
      '@import in a style element',
      svg('<style>@import url(https://evil.test/x.css);</style>'),
      'imports a style sheet (@import) in <style>',
    ],
    [
      'an escaped @import',
      svg('<style><![CDATA[ @\\69mport "x.css"; ]]></style>'),
      'uses escaped CSS in <style>',
    ],
    [
      'a data: SVG in <use>',
      svg('<use href="data:image/svg+xml;base64,PHN2Zy8+#a"/>'),
      'embeds another document in <use>',
    ],
    [
      'an external url() in a fill',
      svg('<rect fill="url(https://evil.test/p.svg#g)"/>'),
      'loads a resource from outside the file (https://evil.test/p.svg#g) in <rect fill>',
    ],
    [
      'an external url() in a style attribute',
      svg('<rect style="fill: url( \'//evil.test/p#g\' )"/>'),
      'loads a resource from outside the file',
    ],
  ])('refuses %s', (_what, text, reason) => {
    const out = sanitizeSvg(text);
    expect(out.ok).toBe(false);
    if (!out.ok && reason) expect(out.reason.startsWith(reason)).toBe(true);
  });

  it('keeps a drawing, drops what is not on the allow-list', () => {
    const out = sanitizeSvg(
      '<!-- editor -->\n' +
        svg(
          '<metadata><rdf:RDF>x</rdf:RDF></metadata><sodipodi:namedview/>' +
            '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
            '<a href="https://example.com"><rect fill="url(#g)" width="3" data-x="1"/></a>' +
            '<use xlink:href="#g"/><text x="1">a &lt; b &amp; c</text>' +
            '<image href="data:image/png;base64,iVBORw0KGgo="/>',
          ' xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:sodipodi="x" sodipodi:docname="a" width="9"',
        ),
    );
    expect(out).toEqual({
      ok: true,
      svg:
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<svg xmlns="http://www.w3.org/2000/svg" width="9">' +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<rect fill="url(#g)" width="3"/><use href="#g"/><text x="1">a &lt; b &amp; c</text>' +
        '<image href="data:image/png;base64,iVBORw0KGgo="/></svg>\n',
    });
  });

  it('passes the fixture logo through unchanged in what it draws', () => {
    const out = sanitizeSvg(svgFile.toString());
    expect(out.ok && out.svg).toContain('<rect width="120" height="40" rx="6" fill="#1c7ed6"/>');
  });
});

describe('over HTTP', () => {
  let t: AdminTestContext;
  beforeAll(async () => {
    t = await setupAdminTest();
  });
  afterAll(() => t.close());

  it('answers 415 with the reason for an SVG logo that loads an image from elsewhere', async () => {
    const res = await t.call('PUT', '/settings/logo', {
      multipart: [
        {
          field: 'file',
          filename: 'logo.svg',
          content: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.test/track.png"/></svg>',
          ),
        },
      ],
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.message).toContain(
      'logo.svg links to a resource outside the file in <image> (https://evil.test/track.png).',
    );
  });
});
