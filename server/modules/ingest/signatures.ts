import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { defaultSignatureHeader, type SignatureScheme } from '../../../contract/ingest-mapping.ts';

/**
 * Request signatures a tracker can send (issue 26, item 7), each compared in constant time:
 *
 * - `callrail`: CallRail signs each webhook with HMAC-SHA1 of the raw body, keyed by the
 *   account's signing key, base64, in the `Signature` header.
 * - `twilio`: Twilio's request validation: HMAC-SHA1, keyed by the auth token, over the full URL
 *   it called (scheme, host, path and query, our key included) followed, for a form POST, by
 *   every POST parameter sorted by name, name and value appended; base64, in
 *   `X-Twilio-Signature`. A JSON body is covered by the URL's `bodySHA256` parameter (the
 *   SHA-256 of the body, hex), which must match too.
 * - `basic`: HTTP Basic auth with `user:password`.
 * - `hmac-sha256`: HMAC-SHA256 of the raw body in a named header, hex or base64, with or without
 *   a `sha256=` prefix (the form most webhook senders use).
 */

export type Signature = { scheme: SignatureScheme; secret: string; header?: string | undefined };

export type SignedRequest = {
  /** The URL as the tracker called it: PUBLIC_URL + path + query. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received ('' for none). */
  rawBody: string;
  /** The parsed form body (Twilio's parameters), if the body was a form. */
  form: Record<string, string | string[]> | null;
};

const header = (h: SignedRequest['headers'], name: string): string | undefined => {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/** Equal bytes, in time independent of where they differ. */
function sameBytes(a: Buffer, b: Buffer): boolean {
  if (a.length !== b.length) {
    // Still spend the comparison, so a length mismatch is not faster than a content one.
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** Twilio's string to sign: the URL, then each POST parameter by name, name and value. */
export function twilioPayload(url: string, form: Record<string, string | string[]> | null): string {
  if (!form) return url;
  let out = url;
  for (const name of Object.keys(form).sort()) {
    const v = form[name];
    for (const value of Array.isArray(v) ? [...v].sort() : [v ?? '']) out += name + value;
  }
  return out;
}

/** True when the request carries the integration's signature. */
export function verifySignature(sig: Signature, req: SignedRequest): boolean {
  const name = sig.header ?? defaultSignatureHeader[sig.scheme];
  const sent = header(req.headers, name)?.trim();
  if (!sent) return false;
  switch (sig.scheme) {
    case 'callrail': {
      const want = createHmac('sha1', sig.secret).update(req.rawBody, 'utf8').digest();
      return sameBytes(Buffer.from(sent, 'base64'), want);
    }
    case 'twilio': {
      const want = createHmac('sha1', sig.secret)
        .update(twilioPayload(req.url, req.form), 'utf8')
        .digest();
      if (!sameBytes(Buffer.from(sent, 'base64'), want)) return false;
      // A form is covered by the signature itself; any other body by bodySHA256 in the URL.
      if (req.form !== null || req.rawBody === '') return true;
      const bodyHash = new URL(req.url).searchParams.get('bodySHA256') ?? '';
      const hash = createHash('sha256').update(req.rawBody, 'utf8').digest('hex');
      return sameBytes(Buffer.from(bodyHash.toLowerCase(), 'utf8'), Buffer.from(hash, 'utf8'));
    }
    case 'basic': {
      const m = /^basic\s+(.+)$/i.exec(sent);
      if (!m) return false;
      return sameBytes(
        Buffer.from(m[1]!.trim(), 'utf8'),
        Buffer.from(Buffer.from(sig.secret, 'utf8').toString('base64')),
      );
    }
    case 'hmac-sha256': {
      const want = createHmac('sha256', sig.secret).update(req.rawBody, 'utf8').digest();
      const v = sent.replace(/^sha256=/i, '');
      const asHex = /^[0-9a-f]{64}$/i.test(v) ? Buffer.from(v, 'hex') : Buffer.from(v, 'base64');
      return sameBytes(asHex, want);
    }
  }
}
