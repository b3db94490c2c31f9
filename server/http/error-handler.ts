import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  databaseUnavailableMessage,
  foreignKeyMessage,
  isDatabaseUnavailable,
  isForeignKeyViolation,
} from '../db/pg-errors.ts';
import { AppError, dataExceptionMessage, isDataException } from '../errors.ts';
// Plain-sentence messages for zod's built-in checks, for every schema the server validates.
import './zod-messages.ts';

/** `{error:{code,message,details?}}`, the one error body of /api, /files and /dev. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  details?: Record<string, string[]>,
) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({ error: details ? { code, message, details } : { code, message } });
}

function fieldOf(instancePath: string | undefined, params: unknown): string {
  const p = (instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  if (p) return p;
  const missing = (params as { missingProperty?: string } | undefined)?.missingProperty;
  return missing ?? '_';
}

const fastifyCodes: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    message: 'This content type is not accepted here.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'The request is too large.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    code: 'validation_failed',
    message: 'The request body is empty; JSON was expected.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: 'bad_json',
    message: 'The request body is not valid JSON.',
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    code: 'unsupported_media_type',
    message: 'A multipart/form-data upload was expected.',
  },
  FST_REQ_FILE_TOO_LARGE: { code: 'payload_too_large', message: 'The file is too large.' },
  FST_FILES_LIMIT: { code: 'validation_failed', message: 'Too many files in one request.' },
};

/** Turns any thrown error into the JSON error body; 5xx answers carry no internals. */
export function errorHandler(
  this: FastifyInstance,
  err: FastifyError,
  req: FastifyRequest,
  reply: FastifyReply,
) {
  if (err instanceof AppError) {
    if (err.status >= 500) req.log.error({ err }, 'request failed');
    return sendError(reply, err.status, err.code, err.message, err.details);
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details: Record<string, string[]> = {};
    for (const v of err.validation) {
      const field = fieldOf(v.instancePath, v.params);
      const list = details[field] ?? [];
      list.push(v.message ?? 'Invalid value');
      details[field] = list;
    }
    const first = Object.entries(details)[0];
    const message = first
      ? `${first[0] === '_' ? 'Request' : first[0]}: ${first[1][0]}`
      : 'The request is not valid.';
    return sendError(reply, 400, 'validation_failed', message, details);
  }
  const known = err.code ? fastifyCodes[err.code] : undefined;
  const status = err.statusCode ?? 500;
  if (known)
    return sendError(
      reply,
      status >= 400 && status < 500 ? status : 400,
      known.code,
      known.message,
    );
  if (status >= 400 && status < 500) {
    return sendError(reply, status, status === 429 ? 'rate_limited' : 'bad_request', err.message);
  }
  if (isDatabaseUnavailable(err)) {
    req.log.warn({ err, reqId: req.id }, 'the database is unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return sendError(reply, 503, 'service_unavailable', databaseUnavailableMessage);
  }
  if (isForeignKeyViolation(err)) {
    // A row this request refers to was deleted at the same moment (or the reverse).
    req.log.info({ err, reqId: req.id }, 'foreign-key race');
    return sendError(reply, 409, 'conflict', foreignKeyMessage(err));
  }
  if (isDataException(err)) {
    req.log.warn({ err, reqId: req.id }, 'the database refused a value from the request');
    return sendError(reply, 400, 'validation_failed', dataExceptionMessage);
  }
  req.log.error({ err, reqId: req.id }, 'unhandled error');
  return sendError(
    reply,
    500,
    'internal_error',
    `Something went wrong on our side. Please try again (request ${req.id}).`,
  );
}
