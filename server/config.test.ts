import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'portal-cfg-'));

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('has working defaults: port 3000, embedded database, dev mailbox', () => {
    const c = loadConfig({ DATA_DIR: dataDir() });
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.devMailbox).toBe(true);
    expect(c.s3).toBeUndefined();
  });

  it('generates a JWT secret once and keeps it under DATA_DIR', () => {
    const dir = dataDir();
    const a = loadConfig({ DATA_DIR: dir });
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(true);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(a.jwtSecret);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(a.jwtSecret);
  });

  it('takes the PostgreSQL pool size from DB_POOL_MAX and says what is wrong with it', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).databasePoolMax).toBe(10);
    expect(loadConfig({ DATA_DIR: dataDir(), DB_POOL_MAX: '25' }).databasePoolMax).toBe(25);
    for (const bad of ['0', '-3', '2.5', 'many', '1001']) {
      expect(errorOf({ DB_POOL_MAX: bad })).toBe(
        'DB_POOL_MAX must be a whole number of connections (1-1000)',
      );
    }
  });

  it("takes the deliveries' pace under ingestion pressure from OUTBOUND_YIELD_RATE (0 = off)", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).outboundYieldRate).toBe(200);
    expect(loadConfig({ DATA_DIR: dataDir(), OUTBOUND_YIELD_RATE: '0' }).outboundYieldRate).toBe(0);
    for (const bad of ['-1', '2.5', 'fast']) {
      expect(errorOf({ OUTBOUND_YIELD_RATE: bad })).toBe(
        'OUTBOUND_YIELD_RATE must be a whole number of deliveries per second (0 = never slow down)',
      );
    }
  });

  it('reads TRUST_PROXY as nobody, a hop count or a list of proxy addresses', () => {
    const tp = (v: string) => loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: v }).trustProxy;
    expect(tp('false')).toBe(false);
    expect(tp('0')).toBe(false);
    expect(tp('1')).toBe(1);
    expect(tp('2')).toBe(2);
    expect(tp('10.0.0.5, 10.1.0.0/16,::1')).toEqual(['10.0.0.5', '10.1.0.0/16', '::1']);
    expect(tp('loopback')).toEqual(['loopback']);
  });

  it('drains for 6 s on PostgreSQL (a balancer in front) and not at all on the embedded database', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).shutdownDrainSeconds).toBe(0);
    const pgEnv = { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://x@db/portal' };
    expect(loadConfig(pgEnv).shutdownDrainSeconds).toBe(6);
    expect(loadConfig({ ...pgEnv, SHUTDOWN_DRAIN_SECONDS: '2' }).shutdownDrainSeconds).toBe(2);
  });

  it('requires JWT_SECRET in production', () => {
    expect(errorOf({ NODE_ENV: 'production' })).toMatch(/^JWT_SECRET is required/);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a port number/],
    [{ PORT: '70000' }, /^PORT must be a port number/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a URL starting with postgres:/],
    [{ SMTP_URL: 'nope' }, /^SMTP_URL must be a URL/],
    [{ TRUST_PROXY: 'maybe' }, /^TRUST_PROXY: "maybe" is not an address or CIDR/],
    [{ TRUST_PROXY: 'true' }, /^TRUST_PROXY=true would take the left-most X-Forwarded-For/],
    [{ TRUST_PROXY: '10.0.0.0/40' }, /^TRUST_PROXY: "10.0.0.0\/40" is not an address or CIDR/],
    [{ SHUTDOWN_DRAIN_SECONDS: '-1' }, /^SHUTDOWN_DRAIN_SECONDS must be a number of seconds/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET must be at least 32 characters/],
    [{ S3_ENDPOINT: 'http://localhost:9000' }, /^S3_BUCKET is required/],
    [{ AUTH_AUTOCONFIRM: 'sure' }, /^AUTH_AUTOCONFIRM must be true or false/],
  ])('stops on %o with one line naming the variable', (env, pattern) => {
    const message = errorOf(env as Record<string, string>);
    expect(message).toMatch(pattern);
    expect(message).not.toContain('\n');
  });

  it('turns the dev mailbox off when SMTP_URL is set or in production', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), SMTP_URL: 'smtp://localhost:25' }).devMailbox).toBe(
      false,
    );
    expect(
      loadConfig({ DATA_DIR: dataDir(), NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40) })
        .devMailbox,
    ).toBe(false);
  });
});
