import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import {
  buildAdmin,
  buildBuyer,
  buildPublisher,
  type TestUser,
  tokenFor,
} from '../test/factories.ts';
import { gotrueCall } from '../test/gotrue.ts';

/**
 * Property-based bad input (issue 11) against every route of the OpenAPI document
 * (app.swagger()): for each operation a valid request is built from its schemas, then one
 * field (a body property, a query or path parameter, or the whole body) is replaced with a
 * value that breaks its schema, or with random JSON. No answer may be a 5xx, and a 400 must
 * say which field is wrong. CI runs FUZZ_CASES (default 2,000) cases spread over the
 * operations; `FUZZ_CASES=100000 npx vitest run server/http/fuzz.test.ts` is the long run.
 */
const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

type Schema = {
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  nullable?: boolean;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
};
type Param = { in: 'path' | 'query'; name: string; required?: boolean; schema: Schema };
type Operation = {
  method: string;
  path: string;
  params: Param[];
  body: Schema | undefined;
};
type Field =
  | { where: 'body'; name: string; schema: Schema; required: boolean }
  | { where: 'query' | 'path'; name: string; schema: Schema; required: boolean }
  | { where: 'whole-body'; name: 'body' };

const DATE = '2024-05-31';

/** A value the schema accepts (the base request that one field is then spoiled in). */
function validValue(s: Schema): unknown {
  if (s.anyOf?.length) return validValue(s.anyOf[0]!);
  if (s.enum?.length) return s.enum[0];
  switch (s.type) {
    case 'string':
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date' || s.pattern?.includes('\\d{4}')) return DATE;
      if (s.format === 'date-time') return `${DATE}T12:00:00Z`;
      if (s.format === 'email') return `fuzz-${randomUUID()}@example.test`;
      return 'fuzz'.padEnd(Math.max(1, s.minLength ?? 1), 'z').slice(0, s.maxLength ?? 50);
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : 1;
      return Math.min(min + (s.exclusiveMinimum === true ? 1 : 0), s.maximum ?? min);
    }
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(s.items ?? {}));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = validValue(s.properties?.[name] ?? {});
      return out;
    }
    default:
      return 'fuzz';
  }
}

const junkJson = fc.jsonValue({ maxDepth: 2 });
const weirdText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('\u0000', 'x\u0000y', '../../etc/passwd', "' or 1=1 --", '%00', '\uD800', '𝕏'),
);

/** Values that break a JSON body property's schema (or random JSON, which may not). */
function badJson(s: Schema): fc.Arbitrary<unknown> {
  const t = s.anyOf ? undefined : s.type;
  const options: fc.Arbitrary<unknown>[] = [junkJson, fc.constantFrom({}, [], true)];
  if (!s.nullable) options.push(fc.constant(null));
  if (t === 'string' || s.anyOf) {
    options.push(fc.integer(), weirdText);
    if (s.maxLength !== undefined) {
      options.push(fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 30 }));
    }
    if ((s.minLength ?? 0) > 0) options.push(fc.constant(''));
    if (s.enum) options.push(fc.string().map((x) => `not-${x}`));
    if (s.format) options.push(weirdText.map((x) => `bad-${x}`));
  }
  if (t === 'number' || t === 'integer') {
    options.push(fc.string(), fc.constantFrom('12', '1e3', 1e308, -1e308, -0.5, 2 ** 53 + 1));
    if (s.maximum !== undefined) options.push(fc.double({ min: s.maximum + 1, noNaN: true }));
    if (typeof s.minimum === 'number') {
      options.push(fc.double({ max: s.minimum - 0.5, noNaN: true }));
    }
    if (t === 'integer') options.push(fc.constant(1.5));
  }
  if (t === 'boolean') options.push(fc.constantFrom('yes', 'true', 0, 2));
  if (t === 'object') options.push(weirdText, fc.integer());
  if (t === 'array') options.push(weirdText, fc.array(junkJson, { minLength: 50, maxLength: 60 }));
  return fc.oneof(...options);
}

/** Strings that break a query or path parameter's schema (or random text, which may not). */
function badParam(s: Schema): fc.Arbitrary<string> {
  const t = s.anyOf ? undefined : s.type;
  const options: fc.Arbitrary<string>[] = [
    weirdText,
    fc.string({ maxLength: 20 }),
    fc.constant('x'.repeat(5000)),
  ];
  if (t === 'integer' || t === 'number') {
    options.push(
      fc.constantFrom('abc', '-1', '0', '1.5', '1e400', 'NaN', 'Infinity', '99999999999999999999'),
    );
  }
  if (s.enum) options.push(fc.string({ maxLength: 10 }).map((x) => `not-${x}`));
  if (s.format === 'uuid')
    options.push(fc.constantFrom('not-a-uuid', '123', randomUUID().slice(1)));
  if (s.anyOf || s.format === 'date' || s.pattern) {
    options.push(fc.constantFrom('2024-13-45', '31/05/2024', '2024-02-30', 'yesterday'));
  }
  return fc.oneof(...options);
}

let t: TestApp;
let ops: Operation[];
let admin: TestUser;
let publisher: TestUser;
let buyer: TestUser;
const tokenCache = new Map<string, string>();

beforeAll(async () => {
  t = await buildTestApp();
  admin = await buildAdmin(t.db);
  publisher = await buildPublisher(t.db);
  buyer = await buildBuyer(t.db);
  const spec = t.app.swagger() as {
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Param[];
          requestBody?: { content: Record<string, { schema: Schema }> };
        }
      >
    >;
  };
  ops = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      ops.push({
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
});
afterAll(() => t.close());

/** The caller a route is meant for, so that input checks are reached at all. */
async function tokenFor_(path: string): Promise<string | null> {
  // GoTrue's user and logout routes change or end the session: a fresh user each time.
  if (path === '/auth/v1/user' || path === '/auth/v1/logout') {
    const u = await buildPublisher(t.db);
    return tokenFor(t.db, t.config.jwtSecret, u);
  }
  const who = path.startsWith('/api/v1/admin/')
    ? admin
    : path.startsWith('/api/v1/buyer/')
      ? buyer
      : path.startsWith('/api/v1/publisher/') || path === '/api/v1/me'
        ? publisher
        : null;
  if (!who) return null;
  if (!tokenCache.has(who.id)) {
    tokenCache.set(who.id, await tokenFor(t.db, t.config.jwtSecret, who));
  }
  return tokenCache.get(who.id)!;
}

type Built = { path: Record<string, string>; query: Record<string, string>; body: unknown };

function baseRequest(op: Operation): Built {
  const path: Record<string, string> = {};
  const query: Record<string, string> = {};
  for (const p of op.params) {
    if (p.in === 'path') path[p.name] = String(validValue(p.schema));
    else if (p.required) query[p.name] = String(validValue(p.schema));
  }
  return { path, query, body: op.body ? validValue(op.body) : undefined };
}

/** Lone surrogates become U+FFFD, as a browser would send them (encodeURIComponent throws). */
const wellFormed = (s: string) => Buffer.from(s, 'utf8').toString('utf8');

async function send(op: Operation, req: Built) {
  const url =
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      encodeURIComponent(wellFormed(req.path[name] ?? '')),
    ) + (Object.keys(req.query).length ? `?${new URLSearchParams(req.query)}` : '');
  const token = await tokenFor_(op.path);
  const res = await gotrueCall(t, op.method as 'GET', url, { token, body: req.body });
  let message = '';
  try {
    const json = res.json() as { error?: { message?: string }; message?: string; msg?: string };
    message = json.error?.message ?? json.message ?? json.msg ?? '';
  } catch {
    message = '';
  }
  return { status: res.statusCode, message, url };
}

function fieldsOf(op: Operation): Field[] {
  const fields: Field[] = op.params.map((p) => ({
    where: p.in,
    name: p.name,
    schema: p.schema,
    required: p.in === 'path' || p.required === true,
  }));
  if (op.body) {
    fields.push({ where: 'whole-body', name: 'body' });
    for (const [name, schema] of Object.entries(op.body.properties ?? {})) {
      fields.push({
        where: 'body',
        name,
        schema,
        required: op.body.required?.includes(name) ?? false,
      });
    }
  }
  return fields;
}

function caseFor(field: Field): fc.Arbitrary<{ field: Field; value: unknown }> {
  if (field.where === 'whole-body') {
    return fc
      .oneof(junkJson, fc.constantFrom([], 'text', 42, null))
      .map((value) => ({ field, value }));
  }
  const value =
    field.where === 'body'
      ? fc.oneof(
          badJson(field.schema),
          field.required ? fc.constant(undefined) : badJson(field.schema),
        )
      : badParam(field.schema);
  return value.map((v) => ({ field, value: v }));
}

// How messages may call a field besides its own name ("The search can be at most …").
const ALIASES: Record<string, string[]> = { q: ['search'] };
const flat = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
/** Whether a message names the field (e-mail = email, target audience = target_audience). */
const names = (message: string, field: string) =>
  [field, ...(ALIASES[field] ?? [])].some((n) => flat(message).includes(flat(n)));

describe('bad input from the OpenAPI schemas', () => {
  it('never answers 5xx, and every 400 names the field', async () => {
    expect(ops.length).toBeGreaterThan(40);
    const fuzzable = ops.filter((op) => fieldsOf(op).length > 0);
    const perOp = Math.max(1, Math.ceil(TOTAL_CASES / fuzzable.length));
    const problems: string[] = [];
    let cases = 0;
    for (const op of fuzzable) {
      const fields = fieldsOf(op);
      const base = await send(op, baseRequest(op));
      const baseSays400 = base.status === 400;
      await fc.assert(
        fc.asyncProperty(fc.oneof(...fields.map(caseFor)), async ({ field, value }) => {
          const req = baseRequest(op);
          if (field.where === 'whole-body') req.body = value;
          else if (field.where === 'body') {
            const body = { ...(req.body as Record<string, unknown>) };
            if (value === undefined) delete body[field.name];
            else body[field.name] = value;
            req.body = body;
          } else if (field.where === 'path') req.path[field.name] = String(value);
          else req.query[field.name] = String(value);
          const res = await send(op, req);
          cases++;
          const where = `${op.method} ${op.path} ${field.where}:${field.name}=${JSON.stringify(value)?.slice(0, 80)} → ${res.status} ${res.message.slice(0, 120)}`;
          if (res.status >= 500) problems.push(`5xx: ${where}`);
          if (res.status === 400) {
            if (res.message.trim().length < 8) problems.push(`400 without a sentence: ${where}`);
            else if (
              field.where !== 'whole-body' &&
              !baseSays400 &&
              !names(res.message, field.name) &&
              // GoTrue checks fields the schema leaves optional (a sign-up needs a password).
              !fields.some((f) => f.name.length > 2 && names(res.message, f.name))
            ) {
              problems.push(`400 not naming ${field.name}: ${where}`);
            }
          }
          return true;
        }),
        { numRuns: perOp, seed: SEED, endOnFailure: true },
      );
    }
    console.log(
      `fuzz: ${ops.length} operations, ${cases} cases (seed ${SEED}), ${problems.length} problems`,
    );
    expect(problems.slice(0, 30)).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(TOTAL_CASES);
  }, 600_000);
});
