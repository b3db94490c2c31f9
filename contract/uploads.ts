import { LOGO_MAX_BYTES, uploadTypes } from './admin.ts';
import { COMPLIANCE_RULES } from './publisher.ts';

/** One multipart field of an upload: how many files it takes and of which types (extensions). */
export type UploadFieldRule = {
  readonly types: readonly string[];
  readonly min: number;
  readonly max: number;
  readonly maxBytes?: number;
};

/** An upload: its multipart fields by name. */
export type UploadRule = Readonly<Record<string, UploadFieldRule>>;

/**
 * The count and type rule of every upload, defined once: the web checks a choice of files with
 * `checkUpload` before sending, and the server applies the same rule to what arrives.
 */
export const uploadRules = {
  /** POST /publisher/applications/:id/compliance: 1 to 3 recordings and exactly one document. */
  compliance: {
    [COMPLIANCE_RULES.mediaField]: {
      types: COMPLIANCE_RULES.mediaTypes,
      min: 1,
      max: COMPLIANCE_RULES.maxMediaFiles,
    },
    [COMPLIANCE_RULES.documentField]: { types: COMPLIANCE_RULES.documentTypes, min: 1, max: 1 },
  },
  /** PUT /admin/publishers/:id/agreement. */
  agreement: { file: { types: uploadTypes.agreement, min: 1, max: 1 } },
  /** PUT /admin/applications/:id/io. */
  io: { file: { types: uploadTypes.io, min: 1, max: 1 } },
  /** PUT /admin/settings/logo. */
  logo: { file: { types: uploadTypes.logo, min: 1, max: 1, maxBytes: LOGO_MAX_BYTES } },
  /** POST /publisher/leads/:id/disputes: an optional proof (a document, screenshot or recording). */
  dispute: { file: { types: ['pdf', 'png', 'jpg', 'jpeg', 'mp3'], min: 0, max: 1 } },
  /** PUT /admin/leads/:id/recording: the call's recording, kept by the portal. */
  recording: { file: { types: ['mp3'], min: 1, max: 1 } },
  /** POST /admin/documents: an agreement or IO sent for signature, as a PDF. */
  signDocument: { file: { types: ['pdf'], min: 1, max: 1 } },
  /** POST /documents/verify: a signed copy to check. */
  verifyDocument: { file: { types: ['pdf'], min: 1, max: 1 } },
  /** PUT /publisher/tax-form: the W-9 or W-8 as a PDF. */
  taxForm: { file: { types: ['pdf'], min: 1, max: 1 } },
} as const satisfies Record<string, UploadRule>;

/** Codes of a refused choice of files (the server answers with the same codes). */
export type UploadProblemCode =
  | 'missing_files'
  | 'too_many_files'
  | 'unsupported_file_type'
  | 'file_too_large';
export type UploadProblem = { code: UploadProblemCode; field: string; fileName?: string };

/** `mp3`, `pdf`, … from a file name, lower case; '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** True when the file name has one of the field's types. */
export const hasUploadType = (rule: UploadFieldRule, name: string) =>
  rule.types.includes(extensionOf(name));

/**
 * The first problem of a choice of files against an upload's rule, or null when it fits:
 * a missing field first (in any field), then too many files, then a wrong type or size.
 */
export function checkUpload(
  rule: UploadRule,
  files: Readonly<Record<string, readonly { name: string; size: number }[]>>,
): UploadProblem | null {
  const fields = Object.entries(rule);
  for (const [field, r] of fields) {
    if ((files[field]?.length ?? 0) < r.min) return { code: 'missing_files', field };
  }
  for (const [field, r] of fields) {
    if ((files[field]?.length ?? 0) > r.max) return { code: 'too_many_files', field };
  }
  for (const [field, r] of fields) {
    for (const file of files[field] ?? []) {
      if (!hasUploadType(r, file.name)) {
        return { code: 'unsupported_file_type', field, fileName: file.name };
      }
      if (r.maxBytes !== undefined && file.size > r.maxBytes) {
        return { code: 'file_too_large', field, fileName: file.name };
      }
    }
  }
  return null;
}

const UUID_PREFIX_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/;

/**
 * The name shown to people for a stored file key (`bucket/owner/<uuid>-name.pdf`): the last
 * segment without its uuid prefix.
 */
export function displayName(key: string): string {
  const last = key.split('/').pop() ?? key;
  return last.replace(UUID_PREFIX_RE, '') || last;
}
