import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseUnavailableMessage,
  isDatabaseUnavailable,
} from '../db/pg-errors.ts';
import { AppError, dataExceptionMessage, isDataException } from '../errors.ts';

/** The API version GoTrue answers with when the client asks for 2024-01-01 or later. */
export const API_VERSION = '2024-01-01';
export const API_VERSION_HEADER = 'x-supabase-api-version';

/** An /auth/v1 error: GoTrue's status, error code and message (contract §5). */
export class GoTrueError extends Error {
  readonly status: number;
  readonly code: string;
  readonly weakPasswordReasons: string[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { weakPasswordReasons?: string[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'GoTrueError';
    this.status = status;
    this.code = code;
    this.weakPasswordReasons = opts.weakPasswordReasons;
    this.headers = opts.headers;
  }
}

/** True when the request asked for the 2024-01-01 error format (auth-js always does). */
export function wantsVersionedErrors(req: FastifyRequest): boolean {
  const raw = req.headers[API_VERSION_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return false;
  const date = Date.parse(`${value.trim()}T00:00:00Z`);
  return Number.isFinite(date) && date >= Date.parse(`${API_VERSION}T00:00:00Z`);
}

/**
 * Sends a GoTrue error body: `{code,message,error_code,msg}` plus the echoed version header for
 * 2024-01-01 clients, the legacy `{code:<status>,error_code,msg}` otherwise. Always JSON.
 */
export function sendGoTrueError(req: FastifyRequest, reply: FastifyReply, err: GoTrueError) {
  const weak = err.weakPasswordReasons
    ? { weak_password: { reasons: err.weakPasswordReasons } }
    : {};
  for (const [k, v] of Object.entries(err.headers ?? {})) reply.header(k, v);
  if (wantsVersionedErrors(req)) {
    reply.header(API_VERSION_HEADER, API_VERSION);
    return reply
      .status(err.status)
      .type('application/json; charset=utf-8')
      .send({
        code: err.code,
        message: err.message,
        error_code: err.code,
        msg: err.message,
        ...weak,
      });
  }
  const errorId = err.status >= 500 ? { error_id: req.id } : {};
  return reply
    .status(err.status)
    .type('application/json; charset=utf-8')
    .send({ code: err.status, error_code: err.code, msg: err.message, ...weak, ...errorId });
}

function firstZodMessage(err: FastifyError): string {
  const v = (err.validation ?? [])[0];
  if (!v) return 'The request is not valid.';
  const field = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  return field ? `${field}: ${v.message ?? 'invalid value'}` : (v.message ?? 'Invalid request.');
}

/** Turns anything thrown under /auth/v1 into a GoTrue error (the plugin's own handler). */
export function toGoTrueError(err: FastifyError | Error): GoTrueError {
  if (err instanceof GoTrueError) return err;
  if (err instanceof AppError) {
    return new GoTrueError(err.status, err.code, err.message);
  }
  const fe = err as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    return new GoTrueError(400, 'validation_failed', firstZodMessage(fe));
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new GoTrueError(400, 'bad_json', 'Could not parse the request body as JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GoTrueError(415, 'validation_failed', 'Send the request body as JSON.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GoTrueError(413, 'request_too_large', 'The request body is too large.');
  }
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new GoTrueError(status, 'validation_failed', fe.message);
  if (isDataException(err)) return new GoTrueError(400, 'validation_failed', dataExceptionMessage);
  if (isDatabaseUnavailable(err)) {
    return new GoTrueError(503, 'service_unavailable', databaseUnavailableMessage, {
      headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    });
  }
  return new GoTrueError(
    500,
    'unexpected_failure',
    'Unexpected failure, please check server logs for more information',
  );
}
