import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/error-handler.ts';
import { createUrlSigner } from './signed-url.ts';
import {
  BUCKETS,
  displayName,
  fileTypeOfKey,
  isBucketName,
  isInlineKey,
  parseKey,
  type Storage,
} from './storage.ts';

/** Shown for SVGs: styles may apply, nothing may run or load, even when opened directly. */
export const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

type FileParams = { bucket: string; '*': string };

/** `inline|attachment; filename="ascii"; filename*=UTF-8''utf8` (RFC 6266 / RFC 5987). */
export function contentDisposition(key: string): string {
  const name = displayName(key);
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  const kind = isInlineKey(key) ? 'inline' : 'attachment';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

type ByteRange = { start: number; end: number };

/**
 * One `bytes=` range resolved against the size: a range, 'unsatisfiable', or null to send the
 * whole file (no header, a malformed one, or several ranges, which RFC 9110 lets us ignore).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const notFoundFile = (reply: FastifyReply) => sendError(reply, 404, 'not_found', 'File not found.');

async function sendFile(
  req: FastifyRequest,
  reply: FastifyReply,
  storage: Storage,
  key: string,
  cacheControl: string,
) {
  const rangeHeader = req.headers.range;
  let range: ByteRange | null = null;
  if (rangeHeader) {
    const info = await storage.stat(key);
    if (!info) return notFoundFile(reply);
    const parsed = parseRange(rangeHeader, info.size);
    if (parsed === 'unsatisfiable') {
      reply.header('content-range', `bytes */${info.size}`);
      return sendError(
        reply,
        416,
        'range_not_satisfiable',
        'The requested part of the file is beyond its end.',
      );
    }
    range = parsed;
  }
  const file = await storage.read(key, range ?? undefined);
  if (!file) return notFoundFile(reply);

  const type = fileTypeOfKey(key);
  reply.header('content-type', file.contentType);
  reply.header('content-disposition', contentDisposition(key));
  reply.header('x-content-type-options', 'nosniff');
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', cacheControl);
  if (type === 'svg') {
    reply.header('content-security-policy', SVG_CSP);
  } else if (type === 'pdf') {
    // The browser's PDF viewer does not work under the SPA's policy; a PDF runs no page script.
    reply.raw.removeHeader('content-security-policy');
  }
  if (range) {
    reply.status(206);
    reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    reply.header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', file.size);
  }
  return reply.send(file.stream);
}

function one(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * GET /files/public/{bucket}/{path} for public buckets, and GET /files/{bucket}/{path}?expires&sig
 * for everything else: the only ways a stored file leaves the server.
 */
export const filesRoutes: FastifyPluginAsync = async (app) => {
  const { storage } = app;
  const signer = createUrlSigner(app.config.jwtSecret);

  app.get<{ Params: FileParams }>(
    '/public/:bucket/*',
    { schema: { hide: true } },
    async (req, reply) => {
      const { bucket } = req.params;
      const key = `${bucket}/${req.params['*']}`;
      if (!isBucketName(bucket) || !BUCKETS[bucket].isPublic || !parseKey(key)) {
        return notFoundFile(reply);
      }
      // Keys are never reused (uuid per upload), so a public file can be cached for good.
      return sendFile(req, reply, storage, key, 'public, max-age=31536000, immutable');
    },
  );

  app.get<{ Params: FileParams; Querystring: Record<string, unknown> }>(
    '/:bucket/*',
    { schema: { hide: true } },
    async (req, reply) => {
      const { bucket } = req.params;
      const path = req.params['*'];
      const expires = one(req.query.expires);
      const check = signer.verify({ bucket, path, expires, sig: one(req.query.sig) });
      if (check === 'invalid_signature') {
        return sendError(
          reply,
          403,
          'invalid_signature',
          'This file link is not valid. Open the file again from the portal.',
        );
      }
      if (check === 'url_expired') {
        return sendError(
          reply,
          403,
          'url_expired',
          'This file link has expired. Open the file again from the portal to get a new link.',
        );
      }
      const key = `${bucket}/${path}`;
      if (!parseKey(key)) return notFoundFile(reply);
      const secondsLeft = Math.max(0, Number(expires) - Math.floor(Date.now() / 1000));
      return sendFile(req, reply, storage, key, `private, max-age=${Math.min(secondsLeft, 3600)}`);
    },
  );
};
