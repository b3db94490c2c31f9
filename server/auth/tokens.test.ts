import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { jwks, jwtSigner, signAccessToken, verifyAccessToken } from './tokens.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'portal-jwt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const claims = {
  userId: '00000000-0000-4000-8000-000000000001',
  email: 'a@localhost',
  sessionId: '00000000-0000-4000-8000-000000000002',
  amr: [],
  userMetadata: {},
  expiresIn: 600,
};
const env = (more: Record<string, string>) => ({
  NODE_ENV: 'test',
  JWT_SECRET: 'x'.repeat(32),
  PUBLIC_URL: 'https://portal.example',
  DATA_DIR: dir,
  ...more,
});

describe('JWT_ALG=RS256', () => {
  it('generates a private key file (mode 600) and signs tokens the JWKS verifies', async () => {
    const config = loadConfig(env({ JWT_ALG: 'RS256' }));
    const file = path.join(dir, 'jwt-rs256-key.pem');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const signer = await jwtSigner(config);
    const { token } = await signAccessToken(signer, claims);
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
    const set = jwks(signer);
    expect(set.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(set.keys[0]).not.toHaveProperty('d');
    const { payload } = await jwtVerify(token, createLocalJWKSet(set), {
      issuer: 'https://portal.example/auth/v1',
    });
    expect(payload.sub).toBe(claims.userId);
    expect((await verifyAccessToken(signer, token)).sub).toBe(claims.userId);
    // The bare secret no longer verifies an RS256 token.
    await expect(verifyAccessToken(config.jwtSecret, token)).rejects.toThrow();
  });

  it('takes JWT_PRIVATE_KEY from the environment (\\n escapes allowed) and checks its type', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const config = loadConfig(
      env({ JWT_ALG: 'ES256', JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }),
    );
    const signer = await jwtSigner(config);
    expect(jwks(signer).keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(() => loadConfig(env({ JWT_ALG: 'RS256', JWT_PRIVATE_KEY: pem }))).toThrow(
      'JWT_PRIVATE_KEY must be an RSA key for JWT_ALG=RS256',
    );
    expect(() => loadConfig(env({ JWT_ALG: 'ES256', JWT_PRIVATE_KEY: 'nope' }))).toThrow(
      'JWT_PRIVATE_KEY is not a PEM private key',
    );
  });
});
