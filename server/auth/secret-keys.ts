import { createHash, randomBytes } from 'node:crypto';

/**
 * Secret keys handed to machines (integration keys `ik_…`, personal API keys `pk_…`): a
 * recognisable prefix and 32 random bytes (256 bits) in base64url.
 */
export function newSecretKey(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * What is stored of a key: its SHA-256 in hex. A slow, salted hash (argon2, bcrypt) protects
 * passwords people choose, which can be guessed; a 256-bit random key cannot be, so a stolen
 * hash gives nothing away, and a fast hash lets every request find its key by an index look-up.
 */
export function hashSecretKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
