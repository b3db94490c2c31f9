/** Status for each error code the server uses; unknown codes map to 400. */
const statusByCode: Record<string, number> = {
  validation_failed: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** The one error type of the server: becomes `{error:{code,message}}` with its status. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, string[]> | undefined;

  constructor(
    code: string,
    message: string,
    opts: { status?: number; details?: Record<string, string[]> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = opts.status ?? statusByCode[code] ?? 400;
    this.details = opts.details;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found.`);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const badRequest = (message: string, details?: Record<string, string[]>) =>
  new AppError('validation_failed', message, { details });
/** 400 for one field of the request, its message said for the field too. */
export const invalidField = (field: string, message: string) =>
  badRequest(message, { [field]: [message] });

/**
 * True for a PostgreSQL "data exception" (SQLSTATE class 22: a value out of range, a bad date,
 * a NUL in text): caused by what the client sent, so it is answered 400, not 500.
 */
export function isDataException(err: unknown): boolean {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export const dataExceptionMessage =
  'A value in the request is out of range or cannot be stored. Please check it and try again.';
