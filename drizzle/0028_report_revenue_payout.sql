-- Issue 27, item 2: revenue and margin like with like. Revenue counts the calls that carry one
-- (leads.revenue not null, any status); payout counts the payable calls (status approved). The
-- margin subtracted the payout of every payable call from the revenue of some of them, so a
-- network with few revenues showed a negative margin on every row. The rollups now also hold
-- revenue_payable (payable calls that carry a revenue) and revenue_payout (their payout, the
-- columns of 0027): margin = revenue - revenue_payout, and payable - revenue_payable calls with
-- payout - revenue_payout are shown beside it as left out of the margin.
-- Same functions as their latest versions (fold_report_deltas, rebuild_report_totals and
-- rebuild_report_days of 0021), each figure list with the two columns; same lock order.
--
-- The reports read the figures from the covering indexes (index-only scans, 0019): they are made
-- again with the two columns, after the recount below (a rebuild writes faster without them).
DROP INDEX report_time_totals_cover;
--> statement-breakpoint
DROP INDEX report_day_totals_cover;
--> statement-breakpoint
DROP INDEX report_month_totals_cover;
--> statement-breakpoint
DROP INDEX report_span_totals_cover;
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
    RETURNING n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count
  ),
  f AS (
    SELECT publisher_id, offer_id, coalesce(state, '') AS state, status,
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
-- Every rollup from the leads and payouts; the queued deltas are in the leads already, so they
-- are dropped (lead writes wait behind the table lock meanwhile).
CREATE OR REPLACE FUNCTION rebuild_report_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('fold_report_deltas', 15));
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM report_deltas;
  DELETE FROM report_time_totals;
  DELETE FROM payout_time_totals;
  INSERT INTO report_time_totals (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00'), 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue),
         count(*) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL), 0),
         coalesce(sum(d.dispute_count), 0)
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
  GROUP BY 1, 2 ORDER BY 1, 2;
  INSERT INTO payout_time_totals (bucket, slot, payouts, amount)
  SELECT date_bin('15 minutes', "date", timestamptz '2000-01-01 00:00+00'), 0, count(*), sum(amount)
  FROM payouts GROUP BY 1 ORDER BY 1;
  PERFORM rebuild_report_days(tz);
END
$$;
--> statement-breakpoint
-- The tables cut in zone tz (what a change of the network's zone recounts, settings trigger of
-- 0012): days from the leads, coarser blocks summed from the days, payout days from the payouts.
-- The queued deltas are folded first, so the quarter hours (any zone) count them.
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
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
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
  INSERT INTO payout_day_totals (day, slot, payouts, amount)
  SELECT ("date" AT TIME ZONE tz)::date, 0, count(*), sum(amount)
  FROM payouts GROUP BY 1 ORDER BY 1;
  -- Every day was recounted (in a zone that may have changed): kept figures are all stale.
  INSERT INTO report_day_epochs (day, epoch) VALUES ('-infinity', nextval('report_epoch'))
  ON CONFLICT (day) DO UPDATE SET epoch = excluded.epoch;
END
$$;
--> statement-breakpoint
-- The leads already there get the two figures (every rollup recounted, in the network's zone).
SELECT rebuild_report_totals();
--> statement-breakpoint
CREATE INDEX report_time_totals_cover ON report_time_totals (owner, bucket)
  INCLUDE (calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes);
--> statement-breakpoint
CREATE INDEX report_day_totals_cover ON report_day_totals (owner, dim, day)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes);
--> statement-breakpoint
CREATE INDEX report_month_totals_cover ON report_month_totals (owner, dim, month)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes);
--> statement-breakpoint
CREATE INDEX report_span_totals_cover ON report_span_totals (owner, dim, span, start)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes);
