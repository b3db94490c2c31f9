import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Default lifetime of a signed file URL, as the spec says. */
export const DEFAULT_URL_LIFETIME_SECONDS = 3600;

export type SignatureCheck = 'ok' | 'invalid_signature' | 'url_expired';

/** Signs and checks `/files/{bucket}/{path}` URLs with a key used for nothing else. */
export type UrlSigner = {
  sign(bucket: string, path: string, expires: number): string;
  verify(input: {
    bucket: string;
    path: string;
    expires: string | undefined;
    sig: string | undefined;
    now?: number;
  }): SignatureCheck;
};

/** Derives the URL-signing key from the server secret with its own purpose label. */
export function createUrlSigner(secret: string): UrlSigner {
  const key = Buffer.from(hkdfSync('sha256', secret, '', 'portal storage signed-url v1', 32));
  const mac = (bucket: string, path: string, expires: number) =>
    createHmac('sha256', key).update(`${bucket}\n${path}\n${expires}`).digest();

  return {
    sign: (bucket, path, expires) => mac(bucket, path, expires).toString('base64url'),
    verify({ bucket, path, expires, sig, now = Date.now() }) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) {
        return 'invalid_signature';
      }
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(bucket, path, Number(expires));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return 'invalid_signature';
      }
      return Number(expires) * 1000 < now ? 'url_expired' : 'ok';
    },
  };
}

/** The URL path of a key with each segment percent-encoded. */
export function encodeKeyPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
