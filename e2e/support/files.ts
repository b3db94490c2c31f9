import { mp3File, mp4File, pdfFile } from '../../server/test/fixtures.ts';

/** A test file as Playwright's `setInputFiles` takes it (server/test/fixtures.ts bytes). */
export type TestFile = { name: string; mimeType: string; buffer: Buffer };

export const mp3 = (name: string): TestFile => ({ name, mimeType: 'audio/mpeg', buffer: mp3File });
export const mp4 = (name: string): TestFile => ({ name, mimeType: 'video/mp4', buffer: mp4File });
export const pdf = (name: string): TestFile => ({
  name,
  mimeType: 'application/pdf',
  buffer: pdfFile,
});

/**
 * A multipart body for an upload through the API (support/api.ts `callApi`): each file under
 * its part name, in this order (a compliance submission's `media` and `document`, else `file`).
 */
export function formOf(...parts: [field: string, file: TestFile][]): FormData {
  const form = new FormData();
  for (const [field, file] of parts) {
    form.append(field, new Blob([new Uint8Array(file.buffer)], { type: file.mimeType }), file.name);
  }
  return form;
}

/** One second of a 440 Hz tone as 8 kHz mono 16-bit PCM WAV: what a tracker's link serves. */
export function toneWav(seconds = 1, rate = 8000): Buffer {
  const samples = seconds * rate;
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVE', 8);
  head.write('fmt ', 12);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20); // PCM
  head.writeUInt16LE(1, 22); // mono
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}
