import { randomBytes } from 'node:crypto';

export type MultipartPart =
  | { field: string; value: string }
  | { field: string; filename: string; content: Buffer; contentType?: string };

/**
 * A multipart/form-data body for `app.inject`, as a browser would send it (the admin test's
 * `call` and `callAs` take the parts as `multipart` and build it themselves):
 * `app.inject({ method: 'POST', url, ...multipartBody([{ field: 'file', filename: 'a.pdf',
 * content: pdfFile }, { field: 'name', value: 'x' }]), headers: {...} })`.
 * Spread `headers` last yourself when you add authorization (or use `.headers` explicitly).
 */
export function multipartBody(parts: MultipartPart[]): {
  payload: Buffer;
  headers: { 'content-type': string };
} {
  const boundary = `----portal-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('content' in p) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${p.field}"; filename="${p.filename}"\r\n` +
            `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        p.content,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${p.field}"\r\n\r\n${p.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
