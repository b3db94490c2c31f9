-- A batch of calls folds its leads into the maintained figures once, not once per call.
--
-- ingest_calls (0026) writes each call of a batch with its own INSERT … ON CONFLICT, so the
-- leads' statement triggers ran once per call: an upsert of the publisher's balance, three of
-- the lead totals and an insert into report_deltas, five statements per call (about two thirds
-- of a batch's time in the database at 32 calls, and 32 new versions of one balance row).
-- Now ingest_calls sets `portal.fold_deferred` for its own duration: the balances, totals and
-- reports triggers of inserts and updates are then skipped (their WHEN), `leads_fold_keep`
-- copies the transition rows into a temporary table instead (+1 new, −1 old), and
-- fold_lead_batch() folds the table at the end of the batch, in the order the triggers took
-- (balances before totals). A call whose subtransaction fails takes its copied rows with it, so
-- only the calls written are folded. Nothing inside a batch reads the balances, the totals or
-- the report deltas (the caps count in offer_cap_usage). Outside ingest_calls nothing changes.

CREATE FUNCTION fold_lead_batch() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
  pubs uuid[]; sts text[]; days date[]; ns integer[]; pays numeric[]; durs bigint[];
BEGIN
  INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count)
  SELECT sum(d.n)::smallint, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count
  FROM pg_temp.lead_fold_batch d
  GROUP BY d.id, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count
  HAVING sum(d.n) <> 0;

  INSERT INTO publisher_balances AS b (publisher_id, earned)
  SELECT publisher_id, sum(n * payout) FROM pg_temp.lead_fold_batch WHERE status = 'approved'
  GROUP BY publisher_id HAVING sum(n * payout) <> 0 ORDER BY publisher_id
  ON CONFLICT (publisher_id) DO UPDATE SET earned = b.earned + excluded.earned;

  SELECT array_agg(publisher_id), array_agg(status), array_agg(("timestamp" AT TIME ZONE tz)::date),
         array_agg(n::integer), array_agg(n * payout), array_agg(n * call_duration::bigint)
    INTO pubs, sts, days, ns, pays, durs FROM pg_temp.lead_fold_batch;
  IF pubs IS NOT NULL THEN
    PERFORM fold_lead_total_rows(pubs, sts, days, ns, pays, durs, pg_backend_pid() % 8);
  END IF;

  DELETE FROM pg_temp.lead_fold_batch;
END
$fn$;
--> statement-breakpoint
CREATE FUNCTION leads_fold_keep() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO pg_temp.lead_fold_batch
  SELECT 1, id, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count
  FROM new_rows;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO pg_temp.lead_fold_batch
    SELECT -1, id, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count
    FROM old_rows;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- The insert and update triggers of the balances, the report queue and the totals, as before,
-- but skipped inside ingest_calls.
DO $do$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('balances', 'leads_fold_balances'), ('report', 'leads_fold_reports'), ('totals', 'leads_fold_totals')
  ) v(name, fn) LOOP
    EXECUTE format('DROP TRIGGER leads_%s_insert ON leads', t.name);
    EXECUTE format($sql$CREATE TRIGGER leads_%s_insert AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT WHEN (current_setting('portal.fold_deferred', true) IS DISTINCT FROM 'on')
      EXECUTE FUNCTION %s()$sql$, t.name, t.fn);
    EXECUTE format('DROP TRIGGER leads_%s_update ON leads', t.name);
    EXECUTE format($sql$CREATE TRIGGER leads_%s_update AFTER UPDATE ON leads
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT WHEN (current_setting('portal.fold_deferred', true) IS DISTINCT FROM 'on')
      EXECUTE FUNCTION %s()$sql$, t.name, t.fn);
  END LOOP;
END
$do$;
--> statement-breakpoint
CREATE TRIGGER leads_fold_keep_insert AFTER INSERT ON leads REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('portal.fold_deferred', true) = 'on')
  EXECUTE FUNCTION leads_fold_keep();
--> statement-breakpoint
CREATE TRIGGER leads_fold_keep_update AFTER UPDATE ON leads REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT WHEN (current_setting('portal.fold_deferred', true) = 'on')
  EXECUTE FUNCTION leads_fold_keep();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ingest_calls(batch jsonb)
RETURNS TABLE (ord integer, out_id uuid, out_status text, out_missing text, out_failed text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c jsonb;
  r record;
BEGIN
  -- The leads' figures are folded once, at the end (see the top of this file).
  IF to_regclass('pg_temp.lead_fold_batch') IS NULL THEN
    CREATE TEMP TABLE lead_fold_batch ON COMMIT DELETE ROWS AS
      SELECT 1::smallint AS n, id, publisher_id, offer_id, state, status, "timestamp", payout,
             revenue, duration_seconds, call_duration, dispute_count
      FROM leads WITH NO DATA;
  END IF;
  PERFORM set_config('portal.fold_deferred', 'on', true);
  ord := -1;
  FOR c IN SELECT value FROM jsonb_array_elements(batch) LOOP
    ord := ord + 1;
    out_id := NULL; out_status := NULL; out_missing := NULL; out_failed := NULL;
    IF c->>'unchanged_since' IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM integrations i WHERE i.id = (c->>'source')::uuid
        AND i.updated_at = (c->>'unchanged_since')::timestamptz AND i.revoked_at IS NULL) THEN
      out_failed := 'stale';
      RETURN NEXT;
      CONTINUE;
    END IF;
    BEGIN
      SELECT * INTO r FROM ingest_call(
        (c->>'integration')::uuid, (c->>'source')::uuid, c->>'call_id', c->>'event', (c->>'rank')::smallint,
        (c->>'billable')::smallint, c->>'publisher', (c->>'publisher_id')::uuid, c->>'offer',
        (c->>'offer_id')::uuid, c->>'caller', c->>'tracking', (c->>'seconds')::integer,
        (c->>'minutes')::integer, (c->>'revenue')::numeric, (c->>'payout')::numeric,
        c->>'recording', c->>'state', c->>'zip', (c->>'ts')::timestamptz, c->'tags',
        c->>'status', c->>'reason');
      out_id := r.out_id; out_status := r.out_status; out_missing := r.out_missing;
    EXCEPTION WHEN OTHERS THEN
      out_failed := SQLSTATE || ': ' || SQLERRM;
    END;
    RETURN NEXT;
  END LOOP;
  PERFORM set_config('portal.fold_deferred', 'off', true);
  PERFORM fold_lead_batch();
END
$fn$;
