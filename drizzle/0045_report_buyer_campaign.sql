ALTER TABLE "report_deltas" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
-- Issue 31, item 7: the network's margin by buyer and by campaign, from the kept blocks.
-- The report queue carries each lead's campaign (report_deltas.campaign_id), and the fold adds
-- two network dimensions: 'campaign' (the campaign's id, '' without one) and 'buyer' (the
-- campaign's buyer, read from campaigns when folded: a campaign's buyer never changes). Only the
-- network's owner gets them (a publisher never sees buyers). Same functions as their latest
-- versions (leads_fold_reports of 0024, fold_report_deltas of 0028, rebuild_report_days of
-- 0032), with the column and the two dimensions. The batched ingestion's path (0037:
-- leads_fold_keep copies the transition rows, fold_lead_batch queues them) carries the column
-- too; its temporary table is renamed lead_fold_rows so a session that made the old one (without
-- the column) before this migration makes the new one. Then every day is recounted.
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id)
    SELECT 1, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id
    FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id)
    SELECT -1, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id
    FROM old_rows;
  ELSE
    -- Only the rows whose figures moved (a recording or a tag changes no report).
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id)
    SELECT sum(d.n)::smallint, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count, d.campaign_id
    FROM (
      SELECT 1 AS n, id, publisher_id, offer_id, state, status, "timestamp", payout::numeric AS payout, revenue::numeric AS revenue, duration_seconds, call_duration, dispute_count, campaign_id
      FROM new_rows
      UNION ALL
      SELECT -1, id, publisher_id, offer_id, state, status, "timestamp", payout::numeric, revenue::numeric, duration_seconds, call_duration, dispute_count, campaign_id
      FROM old_rows
    ) d
    GROUP BY d.id, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count, d.campaign_id
    HAVING sum(d.n) <> 0;
  END IF;
  RETURN NULL;
END
$$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION fold_report_deltas(wait boolean DEFAULT true) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
  moved integer;
BEGIN
  IF wait THEN
    PERFORM pg_advisory_xact_lock(hashtextextended('fold_report_deltas', 15));
  ELSIF NOT pg_try_advisory_xact_lock(hashtextextended('fold_report_deltas', 15)) THEN
    RETURN -1;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM report_deltas) THEN
    RETURN 0;
  END IF;
  WITH d AS (
    DELETE FROM report_deltas
    RETURNING n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id
  ),
  f AS (
    SELECT d.publisher_id, d.offer_id, coalesce(d.state, '') AS state, d.status,
           coalesce(d.campaign_id::text, '') AS campaign, coalesce((SELECT c.buyer_id::text FROM campaigns c WHERE c.id = d.campaign_id), '') AS buyer,
           date_bin('15 minutes', "timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
           ("timestamp" AT TIME ZONE tz)::date AS day,
           n::bigint AS calls,
           n * (status = 'approved')::int::bigint AS payable,
           n * coalesce(duration_seconds, call_duration * 60)::bigint AS dur,
           n * CASE WHEN status = 'approved' THEN payout ELSE 0 END AS pay,
           n * coalesce(revenue, 0) AS rev,
           n * (revenue IS NOT NULL)::int::bigint AS rc,
           n * (status = 'approved' AND revenue IS NOT NULL)::int::bigint AS rp,
           n * CASE WHEN status = 'approved' AND revenue IS NOT NULL THEN payout ELSE 0 END AS rpay,
           n * dispute_count::bigint AS disp
    FROM d
  ),
  k AS (
    SELECT k.owner, k.dim, f.day, k.key, sum(calls) AS calls, sum(payable) AS payable, sum(dur) AS dur,
           sum(pay) AS pay, sum(rev) AS rev, sum(rc) AS rc, sum(rp) AS rp, sum(rpay) AS rpay, sum(disp) AS disp
    FROM f CROSS JOIN LATERAL (VALUES
      ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', f.offer_id::text),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', f.publisher_id::text),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'state', f.state),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'status', f.status),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'buyer', f.buyer),
      ('00000000-0000-0000-0000-000000000000'::uuid, 'campaign', f.campaign),
      (f.publisher_id, 'offer', f.offer_id::text),
      (f.publisher_id, 'state', f.state),
      (f.publisher_id, 'all', '')) k(owner, dim, key)
    GROUP BY 1, 2, 3, 4
  ),
  t AS (
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
    SELECT o.owner, f.bucket, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(rp), sum(rpay), sum(disp)
    FROM f CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (f.publisher_id)) o(owner)
    GROUP BY 1, 2
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
        OR sum(rp) <> 0 OR sum(rpay) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          revenue_payable = t.revenue_payable + excluded.revenue_payable,
          revenue_payout = t.revenue_payout + excluded.revenue_payout, disputes = t.disputes + excluded.disputes
  ),
  dd AS (
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
    SELECT owner, dim, day, key, 0, calls, payable, dur, pay, rev, rc, rp, rpay, disp
    FROM k
    WHERE calls <> 0 OR payable <> 0 OR dur <> 0 OR pay <> 0 OR rev <> 0 OR rc <> 0 OR rp <> 0 OR rpay <> 0 OR disp <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          revenue_payable = t.revenue_payable + excluded.revenue_payable,
          revenue_payout = t.revenue_payout + excluded.revenue_payout, disputes = t.disputes + excluded.disputes
  ),
  mm AS (
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
    SELECT owner, dim, date_trunc('month', day)::date, key, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(rp), sum(rpay), sum(disp)
    FROM k
    GROUP BY 1, 2, 3, 4
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
        OR sum(rp) <> 0 OR sum(rpay) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          revenue_payable = t.revenue_payable + excluded.revenue_payable,
          revenue_payout = t.revenue_payout + excluded.revenue_payout, disputes = t.disputes + excluded.disputes
  ),
  e AS (
    INSERT INTO report_day_epochs AS t (day, epoch)
    SELECT day, nextval('report_epoch') FROM (SELECT DISTINCT day FROM k) x ORDER BY day
    ON CONFLICT (day) DO UPDATE SET epoch = excluded.epoch
  ),
  ss AS (
    INSERT INTO report_span_totals AS t (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
    SELECT k.owner, k.dim, p.span, p.start, k.key, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(rp), sum(rpay), sum(disp)
    FROM k CROSS JOIN LATERAL (VALUES
      ('dekad', date_trunc('month', k.day)::date + least((extract(day FROM k.day)::int - 1) / 10, 2) * 10),
      ('quarter', date_trunc('quarter', k.day)::date)) p(span, start)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
        OR sum(rp) <> 0 OR sum(rpay) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (owner, dim, span, start, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          revenue_payable = t.revenue_payable + excluded.revenue_payable,
          revenue_payout = t.revenue_payout + excluded.revenue_payout, disputes = t.disputes + excluded.disputes
  )
  SELECT count(*) INTO moved FROM d;
  RETURN moved;
END
$$;

--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebuild_report_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fold_report_deltas(true);
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  PERFORM fold_report_deltas(true);
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  DELETE FROM report_span_totals;
  DELETE FROM payout_day_totals;
  INSERT INTO report_day_totals (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date, k.key, 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue),
         count(*) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL), 0),
         coalesce(sum(d.dispute_count), 0)
  FROM leads d LEFT JOIN campaigns c ON c.id = d.campaign_id CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'buyer', coalesce(c.buyer_id::text, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'campaign', coalesce(d.campaign_id::text, '')),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO report_month_totals (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, date_trunc('month', day)::date, key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls),
         sum(revenue_payable), sum(revenue_payout), sum(disputes)
  FROM report_day_totals GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, 'dekad', date_trunc('month', day)::date + least((extract(day FROM day)::int - 1) / 10, 2) * 10,
         key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls),
         sum(revenue_payable), sum(revenue_payout), sum(disputes)
  FROM report_day_totals GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, 'quarter', date_trunc('quarter', month)::date, key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls),
         sum(revenue_payable), sum(revenue_payout), sum(disputes)
  FROM report_month_totals GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5;
  INSERT INTO payout_day_totals (day, slot, payouts, amount, paid_payouts, paid_amount)
  SELECT ("date" AT TIME ZONE tz)::date, 0, count(*), sum(amount),
         count(*) FILTER (WHERE status = 'paid'), coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0)
  FROM payouts GROUP BY 1 ORDER BY 1;
  -- Every day was recounted (in a zone that may have changed): kept figures are all stale.
  INSERT INTO report_day_epochs (day, epoch) VALUES ('-infinity', nextval('report_epoch'))
  ON CONFLICT (day) DO UPDATE SET epoch = excluded.epoch;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fold_lead_batch() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
  pubs uuid[]; sts text[]; days date[]; ns integer[]; pays numeric[]; durs bigint[];
BEGIN
  INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id)
  SELECT sum(d.n)::smallint, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count, d.campaign_id
  FROM pg_temp.lead_fold_rows d
  GROUP BY d.id, d.publisher_id, d.offer_id, d.state, d.status, d."timestamp", d.payout, d.revenue, d.duration_seconds, d.call_duration, d.dispute_count, d.campaign_id
  HAVING sum(d.n) <> 0;

  INSERT INTO publisher_balances AS b (publisher_id, earned)
  SELECT publisher_id, sum(n * payout) FROM pg_temp.lead_fold_rows WHERE status = 'approved'
  GROUP BY publisher_id HAVING sum(n * payout) <> 0 ORDER BY publisher_id
  ON CONFLICT (publisher_id) DO UPDATE SET earned = b.earned + excluded.earned;

  SELECT array_agg(publisher_id), array_agg(status), array_agg(("timestamp" AT TIME ZONE tz)::date),
         array_agg(n::integer), array_agg(n * payout), array_agg(n * call_duration::bigint)
    INTO pubs, sts, days, ns, pays, durs FROM pg_temp.lead_fold_rows;
  IF pubs IS NOT NULL THEN
    PERFORM fold_lead_total_rows(pubs, sts, days, ns, pays, durs, pg_backend_pid() % 8);
  END IF;

  DELETE FROM pg_temp.lead_fold_rows;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_fold_keep() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO pg_temp.lead_fold_rows
  SELECT 1, id, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id
  FROM new_rows;
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO pg_temp.lead_fold_rows
    SELECT -1, id, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count, campaign_id
    FROM old_rows;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ingest_calls(batch jsonb)
RETURNS TABLE (ord integer, out_id uuid, out_status text, out_missing text, out_failed text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c jsonb;
  r record;
BEGIN
  -- The leads' figures are folded once, at the end (see the top of this file).
  IF to_regclass('pg_temp.lead_fold_rows') IS NULL THEN
    CREATE TEMP TABLE lead_fold_rows ON COMMIT DELETE ROWS AS
      SELECT 1::smallint AS n, id, publisher_id, offer_id, state, status, "timestamp", payout,
             revenue, duration_seconds, call_duration, dispute_count, campaign_id
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
--> statement-breakpoint
SELECT rebuild_report_days(coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'));
--> statement-breakpoint
-- A campaign's name is a report key's name now: its changes move the names' epoch (0025).
CREATE TRIGGER campaigns_report_names AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF name ON campaigns
  FOR EACH STATEMENT EXECUTE FUNCTION bump_report_names();
