import type { SignedFile } from '@contract/publisher.ts';

/** Seconds of slack: a URL this close to expiry is fetched afresh before use. */
const EXPIRY_SLACK_MS = 30_000;

export const isExpired = (file: SignedFile, now = Date.now()) =>
  Date.parse(file.expires_at) - EXPIRY_SLACK_MS <= now;

/** Saves a signed file through the browser (the `download` attribute keeps the page open). */
export function downloadFile(file: SignedFile) {
  const a = document.createElement('a');
  a.href = file.url;
  a.download = file.file_name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Opens a signed file in a new tab (PDFs and images display there; others download). */
export function viewFile(file: SignedFile) {
  window.open(file.url, '_blank', 'noopener');
}
