import { COMPLIANCE_RULES, PUBLISHER_MESSAGES } from '@contract/publisher.ts';
import { checkUpload, hasUploadType, uploadRules } from '@contract/uploads.ts';

export { extensionOf } from '@contract/uploads.ts';

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

const rule = uploadRules.compliance;

/** True for an MP3/MP4 name (the server checks the content as well). */
export const isMediaFile = (f: File) => hasUploadType(rule[COMPLIANCE_RULES.mediaField], f.name);

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

/**
 * The spec's checks before anything is sent: 1 to 3 media files and a document, by the upload's
 * one rule in contract/uploads.ts (the server applies the same).
 */
export function checkComplianceFiles(media: File[], document: File | null): ComplianceCheck {
  const problem = checkUpload(rule, {
    [COMPLIANCE_RULES.mediaField]: media,
    [COMPLIANCE_RULES.documentField]: document ? [document] : [],
  });
  if (problem?.code === 'missing_files') {
    return {
      ok: false,
      title: PUBLISHER_MESSAGES.missingFilesTitle,
      description: PUBLISHER_MESSAGES.missingFiles,
    };
  }
  if (problem?.code === 'too_many_files') {
    return {
      ok: false,
      title: PUBLISHER_MESSAGES.tooManyFilesTitle,
      description: PUBLISHER_MESSAGES.tooManyFiles,
    };
  }
  return { ok: true };
}
