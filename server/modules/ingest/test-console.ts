import { and, eq, sql } from 'drizzle-orm';
import type {
  IntegrationTestRequest,
  IntegrationTestResult,
} from '../../../contract/integrations.ts';
import type { Db } from '../../db/client.ts';
import { joinPublisherAndOffer, offerRefColumns, toOfferRef } from '../../db/refs.ts';
import { leads, users } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import {
  type IngestIntegration,
  type IngestRequest,
  ingestIntegrationById,
  phoneCountryOf,
  readConfigOf,
  signatureRefusal,
} from './ingest.service.ts';
import { upsertCall } from './lead-ingest.ts';
import { readCall } from './mapping.ts';

/**
 * The test console (issue 26, item 2): a request pasted as the tracker would send it, read by
 * the same engine and written by the same statement as the endpoint, in a transaction that is
 * rolled back. The admin's integrations routes call testPastedRequest.
 */

/** Thrown to roll the console's transaction back. */
class DryRun extends Error {}

/**
 * What a request would do, field by field, without writing anything: the mapping's reading of
 * it, the signature check, and the lead it would make or update — found by running the real
 * write in a transaction that is rolled back, so the console can never disagree with the
 * endpoint.
 */
export async function testIngest(opts: {
  db: Db;
  integration: IngestIntegration;
  req: IngestRequest;
}): Promise<IntegrationTestResult> {
  const { db, integration, req } = opts;
  const config = readConfigOf(integration, await phoneCountryOf(db));
  const body = req.body ?? null;
  const params: Record<string, unknown> = {
    ...req.query,
    ...(body && typeof body === 'object' && !Array.isArray(body) ? body : {}),
  };
  const read = readCall(params, config);
  const signature = integration.signature
    ? signatureRefusal(integration, req)
      ? ('invalid' as const)
      : ('valid' as const)
    : ('not_checked' as const);
  const base = {
    signature,
    fields: read.trace,
    tags: read.ok ? read.call.tags : {},
  };
  const refused = (http_status: number, code: string, message: string): IntegrationTestResult => ({
    ...base,
    outcome: 'refused',
    http_status,
    code,
    message,
    lead: null,
  });
  if (body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    return refused(400, 'validation_failed', 'The body must be a JSON object or a form.');
  }
  if (integration.revokedAt) {
    return refused(401, 'key_revoked', `The key of integration "${integration.name}" is revoked.`);
  }
  if (signature === 'invalid') {
    const r = signatureRefusal(integration, req) as {
      status: number;
      code: string;
      message: string;
    };
    return refused(r.status, r.code, r.message);
  }
  if (!read.ok) return refused(400, 'validation_failed', read.message);

  const scope = integration.callScope ?? integration.id;
  let result: IntegrationTestResult | undefined;
  try {
    await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: leads.id })
        .from(leads)
        .where(and(eq(leads.integrationId, scope), eq(leads.externalCallId, read.call.callId)));
      let answer: Awaited<ReturnType<typeof upsertCall>>;
      try {
        answer = await upsertCall({
          db: tx,
          integrationId: integration.id,
          scope,
          call: read.call,
        });
      } catch (err) {
        if (err instanceof AppError && err.status === 422) {
          result = refused(422, err.code, err.message);
          throw new DryRun();
        }
        throw err;
      }
      const [lead] = await joinPublisherAndOffer(
        tx
          .select({
            status: leads.status,
            reason: leads.statusReason,
            publisherId: leads.publisherId,
            publisherName: sql<string>`coalesce(${users.name}, ${users.email})`,
            ...offerRefColumns(leads.offerId),
            payout: sql<string>`${leads.payout}::text`,
            durationSeconds: leads.durationSeconds,
            caller: leads.caller,
            trackingNumber: leads.trackingNumber,
          })
          .from(leads)
          .$dynamic(),
        leads.publisherId,
        leads.offerId,
      ).where(eq(leads.id, answer.id));
      result = {
        ...base,
        outcome: existing ? 'update' : 'create',
        http_status: 200,
        code: null,
        message: existing
          ? `Would update the lead of call ${read.call.callId}.`
          : `Would create a new lead for call ${read.call.callId}.`,
        lead: lead
          ? {
              id: existing ? answer.id : null,
              call_id: read.call.callId,
              status: lead.status,
              reason: lead.reason,
              publisher_id: lead.publisherId,
              publisher_name: lead.publisherName,
              ...toOfferRef(lead),
              payout: lead.payout,
              duration_seconds: lead.durationSeconds,
              caller: lead.caller,
              tracking_number: lead.trackingNumber,
            }
          : null,
      };
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return result!;
}

/**
 * What a request (pasted as the tracker would send it) would do, without writing anything.
 * `query` may be a whole URL or a query string; a body is read by its content type header, or
 * as JSON when it looks like JSON, else as a form.
 */
export async function testPastedRequest(opts: {
  db: Db;
  publicUrl: string;
  id: string;
  input: IntegrationTestRequest;
}): Promise<IntegrationTestResult> {
  const integration = await ingestIntegrationById(opts.db, opts.id);
  if (!integration) throw notFound('Integration');
  const { input } = opts;
  const rawQuery = (input.query ?? '').trim();
  let url: URL;
  try {
    url = /^https?:\/\//i.test(rawQuery)
      ? new URL(rawQuery)
      : new URL(
          `${opts.publicUrl}/api/v1/ingest/calls${rawQuery ? `?${rawQuery.replace(/^\?/, '')}` : ''}`,
        );
  } catch {
    throw new AppError(
      'validation_failed',
      'The URL cannot be read: paste the whole URL or only its query.',
      {
        details: { query: ['The URL cannot be read.'] },
      },
    );
  }
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.headers ?? {})) headers[k.toLowerCase()] = v;
  const text = input.method === 'POST' ? (input.body ?? '') : '';
  const type = headers['content-type'] ?? '';
  const isForm =
    text.trim() !== '' &&
    (type.includes('x-www-form-urlencoded') || (!/json/.test(type) && !/^\s*[[{]/.test(text)));
  let body: unknown = null;
  if (text.trim() !== '') {
    if (isForm) body = Object.fromEntries(new URLSearchParams(text));
    else {
      try {
        body = JSON.parse(text);
      } catch {
        throw new AppError('validation_failed', 'The body is not valid JSON (or a form).', {
          details: { body: ['The body is not valid JSON (or a form).'] },
        });
      }
    }
  }
  // The signature covers the URL as the tracker called this portal: our origin, the path and
  // the query of what was pasted.
  return testIngest({
    db: opts.db,
    integration,
    req: {
      method: input.method ?? 'POST',
      query,
      body,
      rawBody: text,
      form: isForm,
      headers,
      ip: '127.0.0.1',
      url: `${opts.publicUrl}${url.pathname}${url.search}`,
    },
  });
}
