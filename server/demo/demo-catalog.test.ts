import { describe, expect, it } from 'vitest';
import { OFFERS } from './demo-catalog.ts';

describe('demo offers (issue 34 item 3: the card says what pays)', () => {
  it('state no call rule in the script text: the rules are the offer rows the card shows', () => {
    for (const o of OFFERS) {
      expect(o.script, o.title).not.toMatch(/buffer|\d+\s*(s|sec|seconds)\b/i);
      expect(o.bufferMinutes, o.title).toBeGreaterThan(0);
    }
  });
});
