CREATE TABLE "payout_time_totals" (
	"bucket" timestamp with time zone NOT NULL,
	"slot" integer NOT NULL,
	"payouts" integer NOT NULL,
	"amount" numeric NOT NULL,
	CONSTRAINT "payout_time_totals_pkey" PRIMARY KEY("bucket","slot")
);
--> statement-breakpoint
CREATE TABLE "report_day_totals" (
	"owner" uuid NOT NULL,
	"dim" text NOT NULL,
	"day" date NOT NULL,
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"calls" bigint NOT NULL,
	"payable" bigint NOT NULL,
	"duration_seconds" bigint NOT NULL,
	"payout" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"revenue_calls" bigint NOT NULL,
	CONSTRAINT "report_day_totals_pkey" PRIMARY KEY("owner","dim","day","key","slot")
);
--> statement-breakpoint
CREATE TABLE "report_month_totals" (
	"owner" uuid NOT NULL,
	"dim" text NOT NULL,
	"month" date NOT NULL,
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"calls" bigint NOT NULL,
	"payable" bigint NOT NULL,
	"duration_seconds" bigint NOT NULL,
	"payout" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"revenue_calls" bigint NOT NULL,
	CONSTRAINT "report_month_totals_pkey" PRIMARY KEY("owner","dim","month","key","slot")
);
--> statement-breakpoint
CREATE TABLE "report_time_totals" (
	"owner" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"slot" integer NOT NULL,
	"calls" bigint NOT NULL,
	"payable" bigint NOT NULL,
	"duration_seconds" bigint NOT NULL,
	"payout" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"revenue_calls" bigint NOT NULL,
	CONSTRAINT "report_time_totals_pkey" PRIMARY KEY("owner","bucket","slot")
);
--> statement-breakpoint
-- Report rollups (issue 15): schema.ts reportTimeTotals, reportDayTotals, reportMonthTotals and
-- payoutTimeTotals, kept by statement-level triggers like the totals of 0006 (same slots, same
-- lock order: each table's rows in key order, the tables always in the order written).
-- The day and month tables cut days in the network's time zone (settings.timezone), read once per
-- statement; changing the zone recounts them in the same transaction (settings trigger below).
-- The quarter-hour tables do not depend on the zone: every zone's hours and days are whole sets
-- of UTC quarter hours.

CREATE FUNCTION leads_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, date_trunc('month', d."timestamp" AT TIME ZONE tz)::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, date_trunc('month', d."timestamp" AT TIME ZONE tz)::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
  ELSE
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc) FROM (
      SELECT k.owner, k.dim, date_trunc('month', d."timestamp" AT TIME ZONE tz)::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION payouts_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payout_time_totals AS t (bucket, slot, payouts, amount)
    SELECT date_bin('15 minutes', d."date", timestamptz '2000-01-01 00:00+00') AS bucket, s, sum(d.n), sum(d.amount)
    FROM (SELECT 1 AS n, "date", amount FROM new_rows) d
    GROUP BY 1
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
    ORDER BY 1
    ON CONFLICT (bucket, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payout_time_totals AS t (bucket, slot, payouts, amount)
    SELECT date_bin('15 minutes', d."date", timestamptz '2000-01-01 00:00+00') AS bucket, s, sum(d.n), sum(d.amount)
    FROM (SELECT -1 AS n, "date", -amount AS amount FROM old_rows) d
    GROUP BY 1
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
    ORDER BY 1
    ON CONFLICT (bucket, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO payout_time_totals AS t (bucket, slot, payouts, amount)
    SELECT date_bin('15 minutes', d."date", timestamptz '2000-01-01 00:00+00') AS bucket, s, sum(d.n), sum(d.amount)
    FROM (SELECT 1 AS n, "date", amount FROM new_rows UNION ALL SELECT -1 AS n, "date", -amount AS amount FROM old_rows) d
    GROUP BY 1
    HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
    ORDER BY 1
    ON CONFLICT (bucket, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION leads_truncate_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_time_totals;
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION payouts_truncate_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_time_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The day and month tables in the zone of the settings row (the quarter-hour tables too, so a
-- bulk load with the triggers off is repaired by one call). Locks lead and payout writes first.
CREATE FUNCTION rebuild_report_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM report_time_totals;
  DELETE FROM payout_time_totals;
  INSERT INTO report_time_totals (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
  SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00'), 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue)
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
  GROUP BY 1, 2 ORDER BY 1, 2;
  INSERT INTO payout_time_totals (bucket, slot, payouts, amount)
  SELECT date_bin('15 minutes', "date", timestamptz '2000-01-01 00:00+00'), 0, count(*), sum(amount)
  FROM payouts GROUP BY 1 ORDER BY 1;
  PERFORM rebuild_report_days(tz);
END
$$;
--> statement-breakpoint
-- The day and month tables alone, in zone tz (what a change of the network's zone recounts).
CREATE FUNCTION rebuild_report_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  INSERT INTO report_day_totals (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
  SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date, k.key, 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue)
  FROM leads d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, ''))) k(owner, dim, key)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  INSERT INTO report_month_totals (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls)
  SELECT owner, dim, date_trunc('month', day)::date, key, 0,
         sum(calls), sum(payable), sum(duration_seconds), sum(payout), sum(revenue), sum(revenue_calls)
  FROM report_day_totals GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
END
$$;
--> statement-breakpoint
CREATE FUNCTION settings_timezone_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rebuild_report_days(NEW.timezone);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- rebuild_totals() of 0006 now recounts the report rollups too (the bench calls it after a load).
CREATE OR REPLACE FUNCTION rebuild_totals() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM lead_totals;
  DELETE FROM lead_daily_totals;
  DELETE FROM lead_publisher_daily_totals;
  DELETE FROM payout_totals;
  DELETE FROM payout_daily_totals;
  INSERT INTO lead_totals (publisher_id, status, slot, leads, payout, call_duration)
  SELECT publisher_id, status, 0, count(*), sum(payout), sum(call_duration)
  FROM leads GROUP BY publisher_id, status;
  INSERT INTO lead_daily_totals (day, status, slot, leads, payout)
  SELECT ("timestamp" AT TIME ZONE 'UTC')::date, status, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2;
  INSERT INTO lead_publisher_daily_totals (publisher_id, day, slot, leads, payout)
  SELECT publisher_id, ("timestamp" AT TIME ZONE 'UTC')::date, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2;
  INSERT INTO payout_totals (publisher_id, slot, payouts, amount)
  SELECT publisher_id, 0, count(*), sum(amount) FROM payouts GROUP BY publisher_id;
  INSERT INTO payout_daily_totals (day, slot, payouts, amount)
  SELECT ("date" AT TIME ZONE 'UTC')::date, 0, count(*), sum(amount) FROM payouts GROUP BY 1;
  PERFORM rebuild_report_totals();
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_report_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_reports();
--> statement-breakpoint
CREATE TRIGGER leads_report_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_reports();
--> statement-breakpoint
CREATE TRIGGER leads_report_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_reports();
--> statement-breakpoint
CREATE TRIGGER leads_report_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_truncate_reports();
--> statement-breakpoint
CREATE TRIGGER payouts_report_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_reports();
--> statement-breakpoint
CREATE TRIGGER payouts_report_update AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_reports();
--> statement-breakpoint
CREATE TRIGGER payouts_report_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_reports();
--> statement-breakpoint
CREATE TRIGGER payouts_report_truncate AFTER TRUNCATE ON payouts
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_truncate_reports();
--> statement-breakpoint
CREATE TRIGGER settings_timezone_reports AFTER UPDATE OF timezone ON settings
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION settings_timezone_reports();
--> statement-breakpoint
-- Reports read a range of one owner's rows (one dimension's): these indexes hold the figures,
-- so a year is an index-only range scan instead of a heap page per row (measured at 1M leads:
-- bench/reports-2026-11-25.md). Past days and months are rarely written again, so they stay
-- all-visible for index-only scans.
CREATE INDEX report_time_totals_cover ON report_time_totals (owner, bucket)
  INCLUDE (calls, payable, duration_seconds, payout, revenue, revenue_calls);
--> statement-breakpoint
CREATE INDEX report_day_totals_cover ON report_day_totals (owner, dim, day)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls);
--> statement-breakpoint
CREATE INDEX report_month_totals_cover ON report_month_totals (owner, dim, month)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls);
--> statement-breakpoint
-- Backfill the rows already there.
SELECT rebuild_report_totals();
