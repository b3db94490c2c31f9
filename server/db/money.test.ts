import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountCents, cents, centsMoney, centsText, fromMoney, toMoney } from './money.ts';

// The one module of money conversions (issue 28): exact cents between the database's numeric
// texts, the server's bigint sums and the API's JSON numbers.
describe('money conversions', () => {
  it('reads numeric texts as exact cents, rounding extra decimals half away from zero', () => {
    expect(cents('12.05')).toBe(1205n);
    expect(cents('-3')).toBe(-300n);
    expect(cents('0.125')).toBe(13n);
    expect(cents('-0.125')).toBe(-13n);
    expect(cents('99999999999999.99')).toBe(9999999999999999n);
    expect(cents(null)).toBe(0n);
    expect(cents(19.99)).toBe(1999n);
    expect(() => cents('12,05')).toThrow('not a money value');
  });

  it('writes cents back as the driver text and the JSON number', () => {
    expect(centsText(-1205n)).toBe('-12.05');
    expect(centsText(7n)).toBe('0.07');
    expect(centsMoney(123456n)).toBe(1234.56);
    expect(fromMoney(0.1 + 0.2)).toBe('0.30');
    expect(toMoney('1000.05')).toBe(1000.05);
    expect(amountCents(10.1)).toBe(1010n);
  });

  it('a sum in cents equals the sum of its lines, where floats drift', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -10_000_000, max: 10_000_000 }), { maxLength: 200 }),
        (lines) => {
          const texts = lines.map((c) => centsText(BigInt(c)));
          const total = texts.reduce((n, t) => n + cents(t), 0n);
          expect(total).toBe(BigInt(lines.reduce((n, c) => n + c, 0)));
          expect(cents(centsText(total))).toBe(total);
        },
      ),
    );
  });
});
