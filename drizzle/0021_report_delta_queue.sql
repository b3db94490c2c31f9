CREATE TABLE "payout_day_totals" (
	"day" date NOT NULL,
	"slot" integer NOT NULL,
	"payouts" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "payout_day_totals_pkey" PRIMARY KEY("day","slot")
);
--> statement-breakpoint
CREATE TABLE "report_day_epochs" (
	"day" date PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_deltas" (
	"n" smallint NOT NULL,
	"publisher_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"state" text,
	"status" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL,
	"payout" numeric NOT NULL,
	"revenue" numeric,
	"duration_seconds" integer,
	"call_duration" integer NOT NULL,
	"dispute_count" integer NOT NULL
);
--> statement-breakpoint
-- Issue 13, ingestion speed: the report rollups stop being updated row by row in each lead
-- write. A call updated the same rows as every other call of its day (the network's and its
-- publisher's quarter hour, day, month, dekad and quarter, per dimension: 26 rows), in place;
-- the covering indexes hold the figures, so no update could be HOT and each left a dead index
-- entry behind: ~2 ms of backend CPU per call, 6 ms once bloated (bench/ingest-import-2026-11-25.md).
-- Now the lead triggers append the figures a write adds (n = 1) and takes away (n = -1) to
-- report_deltas (one insert, no index), and fold_report_deltas() moves them into the rollups in
-- batches: every second in the background (server/db/report-fold.ts) and before every report
-- read, so a report always counts every committed lead. One folder at a time (an advisory lock),
-- so the rollups are written in slot 0 only.
CREATE SEQUENCE report_epoch;
--> statement-breakpoint
ALTER TABLE report_deltas SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000,
  autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count)
    SELECT 1, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count
    FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count)
    SELECT -1, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count
    FROM old_rows;
  ELSE
    -- Only the rows whose figures moved (a recording or a tag changes no report).
    INSERT INTO report_deltas (n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count)
    SELECT v.* FROM new_rows a JOIN old_rows b ON b.id = a.id
    CROSS JOIN LATERAL (VALUES
      (1::smallint, a.publisher_id, a.offer_id, a.state, a.status, a."timestamp", a.payout::numeric, a.revenue::numeric, a.duration_seconds, a.call_duration, a.dispute_count),
      (-1::smallint, b.publisher_id, b.offer_id, b.state, b.status, b."timestamp", b.payout::numeric, b.revenue::numeric, b.duration_seconds, b.call_duration, b.dispute_count)
    ) v
    WHERE (a.publisher_id, a.offer_id, a.state, a.status, a."timestamp", a.payout, a.revenue, a.duration_seconds, a.call_duration, a.dispute_count)
          IS DISTINCT FROM
          (b.publisher_id, b.offer_id, b.state, b.status, b."timestamp", b.payout, b.revenue, b.duration_seconds, b.call_duration, b.dispute_count);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Moves every queued delta into the rollups, in one statement: the quarter hours (network and
-- publisher), then the days per dimension of the network's zone, and the months, dekads and
-- quarters summed from those days. Answers how many deltas it moved, or -1 when `wait` is false
-- and another session is folding. Rollup rows are taken in key order, table after table.
CREATE FUNCTION fold_report_deltas(wait boolean DEFAULT true) RETURNS integer LANGUAGE plpgsql AS $$
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
           n * dispute_count::bigint AS disp
    FROM d
  ),
  k AS (
    SELECT k.owner, k.dim, f.day, k.key, sum(calls) AS calls, sum(payable) AS payable, sum(dur) AS dur,
           sum(pay) AS pay, sum(rev) AS rev, sum(rc) AS rc, sum(disp) AS disp
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
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT o.owner, f.bucket, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp)
    FROM f CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (f.publisher_id)) o(owner)
    GROUP BY 1, 2
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls, disputes = t.disputes + excluded.disputes
  ),
  dd AS (
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, day, key, 0, calls, payable, dur, pay, rev, rc, disp
    FROM k
    WHERE calls <> 0 OR payable <> 0 OR dur <> 0 OR pay <> 0 OR rev <> 0 OR rc <> 0 OR disp <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls, disputes = t.disputes + excluded.disputes
  ),
  mm AS (
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, date_trunc('month', day)::date, key, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp)
    FROM k
    GROUP BY 1, 2, 3, 4
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls, disputes = t.disputes + excluded.disputes
  ),
  e AS (
    INSERT INTO report_day_epochs AS t (day, epoch)
    SELECT day, nextval('report_epoch') FROM (SELECT DISTINCT day FROM k) x ORDER BY day
    ON CONFLICT (day) DO UPDATE SET epoch = excluded.epoch
  ),
  ss AS (
    INSERT INTO report_span_totals AS t (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT k.owner, k.dim, p.span, p.start, k.key, 0, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp)
    FROM k CROSS JOIN LATERAL (VALUES
      ('dekad', date_trunc('month', k.day)::date + least((extract(day FROM k.day)::int - 1) / 10, 2) * 10),
      ('quarter', date_trunc('quarter', k.day)::date)) p(span, start)
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (owner, dim, span, start, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls, disputes = t.disputes + excluded.disputes
  )
  SELECT count(*) INTO moved FROM d;
  RETURN moved;
END
$$;
--> statement-breakpoint
-- Payouts are few: their rollups stay in step in the writing transaction, now also per day of
-- the network's zone (payout_day_totals).
CREATE FUNCTION payouts_fold_rows(ns integer[], dates timestamptz[], amounts numeric[], s integer)
RETURNS void LANGUAGE sql AS $$
  WITH d AS (SELECT * FROM unnest(ns, dates, amounts) AS u(n, "date", amount)),
  t AS (
    INSERT INTO payout_time_totals AS t (bucket, slot, payouts, amount)
    SELECT date_bin('15 minutes', d."date", timestamptz '2000-01-01 00:00+00'), s, sum(d.n), sum(d.amount)
    FROM d GROUP BY 1
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
    ORDER BY 1
    ON CONFLICT (bucket, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount
  )
  INSERT INTO payout_day_totals AS t (day, slot, payouts, amount)
  SELECT (d."date" AT TIME ZONE coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'))::date,
         s, sum(d.n), sum(d.amount)
  FROM d GROUP BY 1
  HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
  ORDER BY 1
  ON CONFLICT (day, slot) DO UPDATE
    SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
  ns integer[]; dates timestamptz[]; amounts numeric[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(1), array_agg("date"), array_agg(amount) INTO ns, dates, amounts FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(-1), array_agg("date"), array_agg(-amount) INTO ns, dates, amounts FROM old_rows;
  ELSE
    SELECT array_agg(n), array_agg("date"), array_agg(amount) INTO ns, dates, amounts FROM (
      SELECT 1 AS n, "date", amount FROM new_rows
      UNION ALL SELECT -1, "date", -amount FROM old_rows) x;
  END IF;
  IF ns IS NOT NULL THEN
    PERFORM payouts_fold_rows(ns, dates, amounts, s);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_truncate_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('fold_report_deltas', 15));
  DELETE FROM report_deltas;
  DELETE FROM report_time_totals;
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  DELETE FROM report_span_totals;
  INSERT INTO report_day_epochs (day, epoch) VALUES ('-infinity', nextval('report_epoch'))
  ON CONFLICT (day) DO UPDATE SET epoch = excluded.epoch;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_truncate_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_time_totals;
  DELETE FROM payout_day_totals;
  RETURN NULL;
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
  INSERT INTO report_time_totals (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
  SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00'), 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue), coalesce(sum(d.dispute_count), 0)
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
  GROUP BY 1, 2 ORDER BY 1, 2;
  INSERT INTO payout_time_totals (bucket, slot, payouts, amount)
  SELECT date_bin('15 minutes', "date", timestamptz '2000-01-01 00:00+00'), 0, count(*), sum(amount)
  FROM payouts GROUP BY 1 ORDER BY 1;
  PERFORM rebuild_report_days(tz);
END
$$;
--> statement-breakpoint
-- The tables cut in zone tz (what a change of the network's zone recounts): days from the
-- leads, coarser blocks summed from the days, payout days from the payouts. The queued deltas
-- are folded first, so the quarter hours (any zone) count them.
CREATE OR REPLACE FUNCTION rebuild_report_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fold_report_deltas(true);
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  PERFORM fold_report_deltas(true);
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  DELETE FROM report_span_totals;
  DELETE FROM payout_day_totals;
  INSERT INTO report_day_totals (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
  SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date, k.key, 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue), coalesce(sum(d.dispute_count), 0)
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO report_month_totals (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
  SELECT owner, dim, date_trunc('month', day)::date, key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls), sum(disputes)
  FROM report_day_totals GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
  SELECT owner, dim, 'dekad', date_trunc('month', day)::date + least((extract(day FROM day)::int - 1) / 10, 2) * 10,
         key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls), sum(disputes)
  FROM report_day_totals GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
  SELECT owner, dim, 'quarter', date_trunc('quarter', month)::date, key, 0, sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls), sum(disputes)
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
-- Recount every rollup in slot 0 (the fold writes there only) and fill payout_day_totals.
SELECT rebuild_report_totals();
