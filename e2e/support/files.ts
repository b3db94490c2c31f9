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
