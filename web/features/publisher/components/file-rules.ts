import { COMPLIANCE_RULES, PUBLISHER_MESSAGES } from '../../../../contract/publisher.ts';

/** What the media drop zone offers the file picker (MIME types plus extensions). */
export const MEDIA_ACCEPT = {
  'audio/mpeg': ['.mp3'],
  'audio/mp3': ['.mp3'],
  'video/mp4': ['.mp4'],
  'audio/mp4': ['.mp4'],
};

/** What the document drop zone offers the file picker. */
export const DOCUMENT_ACCEPT = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
};

/** `mp3`, `pdf`, … from the file name (the server checks the content as well). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

export const isMediaFile = (f: File) =>
  (COMPLIANCE_RULES.mediaTypes as readonly string[]).includes(extensionOf(f.name));
export const isDocumentFile = (f: File) =>
  (COMPLIANCE_RULES.documentTypes as readonly string[]).includes(extensionOf(f.name));

/** `512 B`, `14.2 KB`, `3.4 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export type ComplianceCheck = { ok: true } | { ok: false; title: string; description: string };

/** The spec's checks before anything is sent: 1 to 3 media files and a document. */
export function checkComplianceFiles(media: File[], document: File | null): ComplianceCheck {
  if (media.length === 0 || !document) {
    return {
      ok: false,
      title: PUBLISHER_MESSAGES.missingFilesTitle,
      description: PUBLISHER_MESSAGES.missingFiles,
    };
  }
  if (media.length > COMPLIANCE_RULES.maxMediaFiles) {
    return {
      ok: false,
      title: PUBLISHER_MESSAGES.tooManyFilesTitle,
      description: PUBLISHER_MESSAGES.tooManyFiles,
    };
  }
  return { ok: true };
}
