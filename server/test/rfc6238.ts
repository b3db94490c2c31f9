import { createHmac } from 'node:crypto';

// An RFC 6238 TOTP generator for tests, written apart from server/auth/totp.ts (which the server
// uses): the codes the tests type come from here, so a mistake in the server's implementation
// cannot agree with itself. Checked against the RFC's own test vectors in mfa.test.ts.

function fromBase32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = secret
    .replace(/=+$/, '')
    .toUpperCase()
    .split('')
    .map((c) => {
      const v = alphabet.indexOf(c);
      if (v === -1) throw new Error(`"${c}" is not base32`);
      return v.toString(2).padStart(5, '0');
    })
    .join('');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8)
    bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The code for a key at a Unix time (seconds), RFC 6238 with HMAC-SHA1. */
export function referenceTotp(
  key: Buffer | string,
  unixSeconds: number,
  opts: { digits?: number; period?: number } = {},
): string {
  const digits = opts.digits ?? 6;
  const period = opts.period ?? 30;
  const k = typeof key === 'string' ? fromBase32(key) : key;
  const t = Math.floor(unixSeconds / period);
  const msg = Buffer.alloc(8);
  msg.writeUInt32BE(Math.floor(t / 2 ** 32), 0);
  msg.writeUInt32BE(t % 2 ** 32, 4);
  const h = createHmac('sha1', k).update(msg).digest();
  const o = h[19]! & 15;
  const bin = ((h[o]! & 0x7f) << 24) | (h[o + 1]! << 16) | (h[o + 2]! << 8) | h[o + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The code of the current 30-second window, or of the one `offset` windows away. */
export const currentTotp = (secret: string, offset = 0) =>
  referenceTotp(secret, Date.now() / 1000 + offset * 30);
