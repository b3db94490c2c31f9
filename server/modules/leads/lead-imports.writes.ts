import { sql } from 'drizzle-orm';
import { minutesOf } from '../../../contract/integrations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { groupRows } from '../../db/rows.ts';
import type { ImportRow } from './lead-imports.policy.ts';

/**
 * The database side of a CSV import of leads (lead-imports.service.ts runs it): the file's
 * publishers and offers resolved to ours, and its rows written (or counted, for the check) a
 * batch at a time, each column one array parameter.
 */

/** Status reason of a lead whose status came from a file. */
const IMPORTED_REASON = 'Imported from a CSV file.';

type Row = Record<string, unknown>;
const rowsOf = (r: unknown): Row[] => (r as { rows: Row[] }).rows;

const needsEscape = /[\\"]/;

/** Array literal of a text[] (or castable) parameter: one parameter for thousands of values. */
function pgArray(values: readonly (string | number | null)[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (i) out += ',';
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += String(v);
    else if (needsEscape.test(v)) out += `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    else out += `"${v}"`;
  }
  return `${out}}`;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value of the file resolved: our id, the records its name fits (more than one), or none. */
export type NameMatch = { id: string } | { candidates: string[] } | undefined;

/** The distinct texts of `values` as names are compared: trimmed, lower-case. */
const nameKeys = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

/** Records grouped by their name's key: one id is a match, more are an ambiguous name. */
function byName(rows: Row[]): Map<string, { id: string; label: string }[]> {
  return groupRows(
    rows,
    (r) => String(r.key),
    (r) => ({ id: String(r.id), label: String(r.label) }),
  );
}

function matchName(names: Map<string, { id: string; label: string }[]>, v: string): NameMatch {
  const found = names.get(v.trim().toLowerCase());
  if (!found) return undefined;
  return found.length === 1 ? { id: found[0]!.id } : { candidates: found.map((f) => f.label) };
}

/**
 * Our publisher and offer of each distinct value of the file: a uuid is our id, an address with
 * @ a publisher's e-mail, anything else an external id attached on the integration or, failing
 * that, a name (the publisher's, the offer's title; case-insensitive, exact; a name two records
 * share matches neither, and the row's error names both).
 */
export async function resolveNames(db: DbOrTx, integrationId: string, rows: ImportRow[]) {
  const pubValues = [...new Set(rows.map((r) => r.publisher).filter(Boolean))];
  const offerValues = [...new Set(rows.map((r) => r.offer).filter(Boolean))];
  const publishers = new Map<string, string>();
  const offerIds = new Map<string, string>();
  const payouts = new Map<string, string>();
  const ids = pubValues.filter((v) => uuidShape.test(v)).map((v) => v.toLowerCase());
  const emails = pubValues.filter((v) => v.includes('@')).map((v) => v.toLowerCase());
  const pubExternal = pubValues.filter((v) => !uuidShape.test(v) && !v.includes('@'));
  for (const r of rowsOf(
    await db.execute(sql`
      select id::text as id, lower(email) as email from users
      where role = 'publisher'
        and (id = any(${pgArray(ids)}::uuid[]) or lower(email) = any(${pgArray(emails)}::text[]))`),
  )) {
    publishers.set(String(r.id), String(r.id));
    publishers.set(String(r.email), String(r.id));
  }
  const offerUuids = offerValues.filter((v) => uuidShape.test(v)).map((v) => v.toLowerCase());
  const offerNames = offerValues.filter((v) => !uuidShape.test(v));
  const external = rowsOf(
    await db.execute(sql`
      select kind, external_id, publisher_id::text as publisher_id, offer_id::text as offer_id
      from integration_external_ids
      where integration_id = ${integrationId}
        and ((kind = 'publisher' and external_id = any(${pgArray(pubExternal)}::text[]))
          or (kind = 'offer' and external_id = any(${pgArray(offerValues)}::text[])))`),
  );
  for (const r of external) {
    if (r.kind === 'publisher') publishers.set(`ext:${r.external_id}`, String(r.publisher_id));
    else offerIds.set(`ext:${r.external_id}`, String(r.offer_id));
  }
  const publisherNames = byName(
    rowsOf(
      await db.execute(sql`
        select lower(btrim(name)) as key, id::text as id,
               btrim(name) || ' (' || email || ')' as label
        from users
        where role = 'publisher' and lower(btrim(name)) = any(${pgArray(nameKeys(pubExternal))}::text[])
        order by email`),
    ),
  );
  const offerTitles = byName(
    rowsOf(
      await db.execute(sql`
        select lower(btrim(title)) as key, id::text as id,
               btrim(title) || ' (' || id::text || ')' as label
        from offers
        where lower(btrim(title)) = any(${pgArray(nameKeys(offerNames))}::text[])
        order by id`),
    ),
  );
  const titled = [...offerTitles.values()].flat().map((o) => o.id);
  const wanted = [...new Set([...offerUuids, ...offerIds.values(), ...titled])];
  for (const r of rowsOf(
    await db.execute(
      sql`select id::text as id, payout::text as payout from offers where id = any(${pgArray(wanted)}::uuid[])`,
    ),
  )) {
    payouts.set(String(r.id), String(r.payout));
    offerIds.set(String(r.id), String(r.id));
  }
  const known = (id: string | undefined): NameMatch => (id ? { id } : undefined);
  return {
    publisher: (v: string): NameMatch =>
      uuidShape.test(v) || v.includes('@')
        ? known(publishers.get(v.toLowerCase()))
        : (known(publishers.get(`ext:${v}`)) ?? matchName(publisherNames, v)),
    // An external id attached on the integration wins over an id of ours (as for postbacks),
    // and both over a title.
    offer: (v: string): NameMatch =>
      known(offerIds.get(`ext:${v}`)) ??
      (uuidShape.test(v) ? known(offerIds.get(v.toLowerCase())) : matchName(offerTitles, v)),
    payout: (offerId: string) => payouts.get(offerId) ?? '0.00',
  };
}

export type Resolved = ImportRow & { publisherId: string; offerId: string };

/**
 * One batch: find which call ids the integration has already (an index probe of
 * leads_integration_call_key each), UPDATE those leads where a value differs (empty cells keep the
 * lead's value; a status set by hand stays), then INSERT the others (a call id that another
 * writer created in between is skipped by ON CONFLICT). A batch of new calls runs no UPDATE.
 * The check (dryRun) counts the same without writing.
 */
export async function writeBatch(
  tx: DbOrTx,
  integrationId: string,
  timezone: string,
  batch: Resolved[],
  offerPayout: (offerId: string) => string,
  dryRun: boolean,
): Promise<{ created: number; updated: number }> {
  // One index probe per call id (the LIMIT keeps the subquery a nested loop): the statistics
  // often say the integration has no leads (they are all new), and the planner would then scan
  // all of them per batch, filtering by call id.
  const leadIds = new Map<string, string>();
  for (const r of rowsOf(
    await tx.execute(sql`
      select c.call_id, l.id::text as id
      from unnest(${pgArray(batch.map((r) => r.callId))}::text[]) as c(call_id)
      cross join lateral (
        select id from leads
        where integration_id = ${integrationId} and external_call_id = c.call_id
        limit 1
      ) l`),
  )) {
    leadIds.set(String(r.call_id), String(r.id));
  }
  const known = leadIds.size === 0 ? [] : batch.filter((r) => leadIds.has(r.callId));
  const fresh = leadIds.size === 0 ? batch : batch.filter((r) => !leadIds.has(r.callId));
  // The rows as a table; new calls get an empty id array (unnest pads it with nulls).
  const source = (rows: Resolved[], withId: boolean) => {
    const col = <T extends string | number | null>(f: (r: Resolved) => T) => pgArray(rows.map(f));
    return sql`
    unnest(
      ${withId ? col((r) => leadIds.get(r.callId)!) : pgArray([])}::uuid[],
      ${col((r) => r.callId)}::text[], ${col((r) => r.publisherId)}::uuid[],
      ${col((r) => r.offerId)}::uuid[], ${col((r) => r.timestamp)}::text[],
      ${col((r) => r.seconds)}::int[], ${col((r) => (r.seconds === null ? null : minutesOf(r.seconds)))}::int[],
      ${col((r) => r.payout)}::numeric[], ${col((r) => offerPayout(r.offerId))}::numeric[],
      ${col((r) => r.revenue)}::numeric[], ${col((r) => r.status)}::text[],
      ${col((r) => r.caller)}::text[], ${col((r) => r.trackingNumber)}::text[],
      ${col((r) => r.state)}::text[], ${col((r) => r.zip)}::text[],
      ${col((r) => r.recordingUrl)}::text[]
    ) as s(id, call_id, publisher_id, offer_id, ts, seconds, minutes, payout, offer_payout, revenue,
           status, caller, tracking_number, state, zip, recording_url)`;
  };
  // A time with Z is an instant; one without is read in the network's time zone.
  const ts = sql`(case when s.ts like '%Z' then s.ts::timestamptz else s.ts::timestamp at time zone ${timezone} end)`;
  let updated = 0;
  if (known.length > 0) {
    const next = {
      publisher_id: sql`s.publisher_id`,
      offer_id: sql`s.offer_id`,
      payout: sql`coalesce(s.payout, l.payout)`,
      status: sql`case when l.status_overridden_at is null then coalesce(s.status, l.status) else l.status end`,
      duration_seconds: sql`coalesce(s.seconds, l.duration_seconds)`,
      call_duration: sql`coalesce(s.minutes, l.call_duration)`,
      timestamp: ts,
      caller: sql`coalesce(s.caller, l.caller)`,
      tracking_number: sql`coalesce(s.tracking_number, l.tracking_number)`,
      revenue: sql`coalesce(s.revenue, l.revenue)`,
      recording_url: sql`coalesce(s.recording_url, l.recording_url)`,
      state: sql`coalesce(s.state, l.state)`,
      zip: sql`coalesce(s.zip, l.zip)`,
    };
    const names = Object.keys(next);
    const quoted = (c: string) => (c === 'timestamp' ? '"timestamp"' : c);
    const values = names.map((c) => next[c as keyof typeof next]);
    const differs = sql`(${sql.join(
      names.map((c) => sql.raw(`l.${quoted(c)}`)),
      sql`, `,
    )}) is distinct from (${sql.join(values, sql`, `)})`;
    // By id alone (found above): a condition on integration_id lets the planner scan all the
    // integration's leads for every batch, as it guesses few from the statistics.
    const match = sql`l.id = s.id`;
    const [upd] = rowsOf(
      await tx.execute(
        dryRun
          ? sql`select count(*)::int as n from leads l, ${source(known, true)} where ${match} and ${differs}`
          : sql`
        with changed as (
          update leads l set
            ${sql.join(
              names.map((c, i) => sql`${sql.raw(quoted(c))} = ${values[i]}`),
              sql`, `,
            )},
            status_reason = case
              when l.status_overridden_at is null and s.status is not null and s.status <> l.status
              then ${IMPORTED_REASON} else l.status_reason end
          from ${source(known, true)}
          where ${match} and ${differs}
          returning 1
        )
        select count(*)::int as n from changed`,
      ),
    );
    updated = Number(upd?.n ?? 0);
  }
  // The check writes nothing: every new call id would be created (the file's call ids are
  // distinct, and its values were checked row by row before).
  if (fresh.length === 0 || dryRun) return { created: fresh.length, updated };
  const [ins] = rowsOf(
    await tx.execute(sql`
      with made as (
        insert into leads (
          publisher_id, offer_id, payout, status, status_reason, call_duration, duration_seconds,
          "timestamp", integration_id, external_call_id, caller, tracking_number, revenue,
          recording_url, state, zip
        )
        select s.publisher_id, s.offer_id, coalesce(s.payout, s.offer_payout),
          coalesce(s.status, 'pending'), case when s.status is null then null else ${IMPORTED_REASON} end,
          coalesce(s.minutes, 0), s.seconds, ${ts}, ${integrationId}::uuid, s.call_id, s.caller,
          s.tracking_number, s.revenue, s.recording_url, s.state, s.zip
        from ${source(fresh, false)}
        on conflict (integration_id, external_call_id) do nothing
        returning 1
      )
      select count(*)::int as n from made`),
  );
  return { created: Number(ins?.n ?? 0), updated };
}
