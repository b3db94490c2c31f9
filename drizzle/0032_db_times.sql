DROP INDEX "leads_ts_id_idx";--> statement-breakpoint
DROP INDEX "leads_publisher_ts_id_idx";--> statement-breakpoint
DROP INDEX "leads_offer_ts_id_idx";--> statement-breakpoint
ALTER TABLE "payout_day_totals" ADD COLUMN "paid_payouts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_day_totals" ADD COLUMN "paid_amount" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
CREATE INDEX "leads_ts_id_idx" ON "leads" USING btree ("timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status","payout");--> statement-breakpoint
CREATE INDEX "leads_publisher_ts_id_idx" ON "leads" USING btree ("publisher_id","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status","payout");--> statement-breakpoint
CREATE INDEX "leads_offer_ts_id_idx" ON "leads" USING btree ("offer_id","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status","payout");
--> statement-breakpoint
-- Hand-written (bench/db-times-2026-11-26.md): the leads indexes above end in status and payout
-- (past the id, so no list's order changes) for index-only totals of a filtered list; and
-- payout_day_totals keeps the paid payouts apart, so the admin dashboard's Total Payouts and
-- recorded payouts over a range read ≤ 366 day rows instead of every payout of the range.
-- The payouts' rollups stay in step in the writing transaction (0021), now with each row's
-- status: marking a run paid moves its payouts from recorded to paid on their days.
DROP FUNCTION payouts_fold_rows(integer[], timestamptz[], numeric[], integer);
--> statement-breakpoint
CREATE FUNCTION payouts_fold_rows(ns integer[], dates timestamptz[], amounts numeric[], paid boolean[], s integer)
RETURNS void LANGUAGE sql AS $$
  WITH d AS (SELECT * FROM unnest(ns, dates, amounts, paid) AS u(n, "date", amount, paid)),
  t AS (
    INSERT INTO payout_time_totals AS t (bucket, slot, payouts, amount)
    SELECT date_bin('15 minutes', d."date", timestamptz '2000-01-01 00:00+00'), s, sum(d.n), sum(d.amount)
    FROM d GROUP BY 1
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
    ORDER BY 1
    ON CONFLICT (bucket, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount
  )
  INSERT INTO payout_day_totals AS t (day, slot, payouts, amount, paid_payouts, paid_amount)
  SELECT (d."date" AT TIME ZONE coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'))::date,
         s, sum(d.n), sum(d.amount),
         coalesce(sum(d.n) FILTER (WHERE d.paid), 0), coalesce(sum(d.amount) FILTER (WHERE d.paid), 0)
  FROM d GROUP BY 1
  HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
      OR coalesce(sum(d.n) FILTER (WHERE d.paid), 0) <> 0 OR coalesce(sum(d.amount) FILTER (WHERE d.paid), 0) <> 0
  ORDER BY 1
  ON CONFLICT (day, slot) DO UPDATE
    SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount,
        paid_payouts = t.paid_payouts + excluded.paid_payouts, paid_amount = t.paid_amount + excluded.paid_amount;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
  ns integer[]; dates timestamptz[]; amounts numeric[]; paids boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(1), array_agg("date"), array_agg(amount), array_agg(status = 'paid')
    INTO ns, dates, amounts, paids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(-1), array_agg("date"), array_agg(-amount), array_agg(status = 'paid')
    INTO ns, dates, amounts, paids FROM old_rows;
  ELSE
    SELECT array_agg(x.n), array_agg(x."date"), array_agg(x.amount), array_agg(x.is_paid)
    INTO ns, dates, amounts, paids FROM (
      SELECT 1 AS n, "date", amount, status = 'paid' AS is_paid FROM new_rows
      UNION ALL SELECT -1, "date", -amount, status = 'paid' FROM old_rows) x;
  END IF;
  IF ns IS NOT NULL THEN
    PERFORM payouts_fold_rows(ns, dates, amounts, paids, s);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The days' recount (0028) with the paid payouts apart; the rest unchanged.
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
-- The payouts already there: their days recounted with the paid ones apart.
DELETE FROM payout_day_totals;
--> statement-breakpoint
INSERT INTO payout_day_totals (day, slot, payouts, amount, paid_payouts, paid_amount)
SELECT ("date" AT TIME ZONE coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'))::date, 0,
       count(*), sum(amount),
       count(*) FILTER (WHERE status = 'paid'), coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0)
FROM payouts GROUP BY 1 ORDER BY 1;
--> statement-breakpoint
-- No parallel plans in the portal's database. Its reads are short ranges of covering indexes
-- (a year of days: 366 rows; a year by offer: ~3,600 block rows of the rollups), yet at millions
-- of rows the planner chose parallel plans for them, and starting the workers cost 150–250 ms of
-- a 1–3 ms read on a busy 2-core machine (the admin dashboard over a year, a year by vertical).
-- Per table (parallel_workers = 0) is not enough: a union of block ranges then became a
-- Parallel Append. A database setting reaches every new session (the portal's pool, the bench).
-- Only the database's owner (or a superuser) may set it: another role migrating is told, not
-- stopped (the same line by hand does it: see docs/design.md).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET max_parallel_workers_per_gather = 0', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'max_parallel_workers_per_gather is left as it is: only the owner of database % may set it (ALTER DATABASE % SET max_parallel_workers_per_gather = 0)', current_database(), current_database();
END
$$;
