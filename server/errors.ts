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
