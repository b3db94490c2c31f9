import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdminReport } from '../../contract/reports.ts';
import { answerSerializer, keptAnswer } from './serializer.ts';

/** The serializer of one route whose 200 answer has `schema`. */
const serializerOf = (schema: z.ZodType, checkAnswers = false) =>
  answerSerializer({ checkAnswers })({
    schema,
    method: 'GET',
    url: '/x',
    httpStatus: '200',
  } as never) as (data: unknown) => string;

const figures = (i: number) => ({
  calls: 1000 + i,
  payable_calls: 800,
  payable_rate: 64.8,
  avg_duration: 182,
  payout: 12345.67,
  revenue: i % 2 ? null : 23456.78,
  margin: i % 2 ? null : 11111.11,
  margin_pct: i % 2 ? null : 47.4,
  payable_without_revenue: 3,
  payout_without_revenue: 45.5,
  disputes: 2,
});
const report = {
  timezone: 'America/New_York',
  range: 'custom' as const,
  from: '2026-01-01',
  to: '2026-12-31',
  previous: null,
  group: 'day',
  sort: 'key',
  order: 'asc' as const,
  rows: Array.from({ length: 30 }, (_, i) => ({
    key: `2026-01-${String(i + 1).padStart(2, '0')}`,
    label: `Jan ${i + 1} "quoted" \\ ü`,
    figures: figures(i),
    previous_figures: i % 3 ? null : figures(i + 1),
  })),
  groups: 30,
  totals: figures(0),
  previous_totals: null,
};

describe('answer serializer', () => {
  it('writes the same JSON as zod would for a report', () => {
    expect(serializerOf(AdminReport)(report)).toBe(JSON.stringify(z.encode(AdminReport, report)));
  });

  it('leaves out what the contract does not declare, as zod does', () => {
    const Account = z.object({ id: z.string(), email: z.string() });
    const out = serializerOf(Account)({ id: 'u1', email: 'a@b.c', password_hash: 'secret' });
    expect(JSON.parse(out)).toEqual({ id: 'u1', email: 'a@b.c' });
  });

  it("falls back to zod where the schema has no JSON Schema form (a Date), with zod's result", () => {
    const Stamped = z.object({ at: z.date() });
    const at = new Date('2026-11-27T06:00:00Z');
    expect(serializerOf(Stamped)({ at, extra: 1 })).toBe('{"at":"2026-11-27T06:00:00.000Z"}');
  });

  it('fails an answer that breaks its contract when answers are checked (outside production)', () => {
    const Count = z.object({ n: z.number().int() });
    expect(() => serializerOf(Count, true)({ n: 'many' })).toThrow();
    expect(serializerOf(Count, true)({ n: 3 })).toBe('{"n":3}');
  });

  it('writes a kept answer once per route, and any other answer every time', () => {
    const Named = z.object({ name: z.string() });
    let reads = 0;
    const answer = () => ({
      get name() {
        reads++;
        return 'Publisher 1';
      },
    });
    const route = serializerOf(Named);
    const kept = keptAnswer(answer());
    expect(route(kept)).toBe('{"name":"Publisher 1"}');
    expect(route(kept)).toBe('{"name":"Publisher 1"}');
    expect(reads).toBe(1);
    // Another route writes it by its own schema.
    const Other = z.object({ name: z.string(), missing: z.string().optional() });
    expect(serializerOf(Other)(kept)).toBe('{"name":"Publisher 1"}');
    expect(reads).toBe(2);
    // Not kept: written again each time.
    reads = 0;
    const plain = answer();
    route(plain);
    route(plain);
    expect(reads).toBe(2);
  });
});
