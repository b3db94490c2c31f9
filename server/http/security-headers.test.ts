import { describe, expect, it } from 'vitest';
import { helmetHeaders } from './security-headers.ts';

describe('helmet headers worked out once', () => {
  it('records what helmet sets, CSP directives included', () => {
    const { set } = helmetHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'self'"], objectSrc: ["'none'"] },
      },
    });
    const headers = Object.fromEntries(set);
    expect(headers['content-security-policy']).toBe("default-src 'self';object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toContain('max-age=');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
