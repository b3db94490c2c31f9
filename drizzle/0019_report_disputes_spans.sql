CREATE TABLE "report_span_totals" (
	"owner" uuid NOT NULL,
	"dim" text NOT NULL,
	"span" text NOT NULL,
	"start" date NOT NULL,
	"key" text NOT NULL,
	"slot" integer NOT NULL,
	"calls" bigint NOT NULL,
	"payable" bigint NOT NULL,
	"duration_seconds" bigint NOT NULL,
	"payout" numeric NOT NULL,
	"revenue" numeric NOT NULL,
	"revenue_calls" bigint NOT NULL,
	"disputes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_span_totals_pkey" PRIMARY KEY("owner","dim","span","start","key","slot")
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "dispute_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_day_totals" ADD COLUMN "disputes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_month_totals" ADD COLUMN "disputes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_time_totals" ADD COLUMN "disputes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Issue 15, second part: a disputes figure in the report rollups, an 'all' dimension (one row per
-- owner and day or month: days and totals of a range read a few hundred rows instead of the
-- UTC quarter hours), and report_span_totals (dekads and quarters) so any range is read as the
-- fewest aligned blocks. leads.dispute_count (kept by a trigger on lead_disputes) carries the
-- disputes into the same statement-level folds as every other figure: a dispute filed or removed
-- updates its lead, and the lead's update moves its figures, whichever dimension it is in.
CREATE FUNCTION lead_disputes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE leads SET dispute_count = dispute_count + 1 WHERE id = NEW.lead_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE leads SET dispute_count = dispute_count - 1 WHERE id = OLD.lead_id AND dispute_count > 0;
  ELSIF NEW.lead_id IS DISTINCT FROM OLD.lead_id THEN
    UPDATE leads SET dispute_count = dispute_count - 1 WHERE id = OLD.lead_id AND dispute_count > 0;
    UPDATE leads SET dispute_count = dispute_count + 1 WHERE id = NEW.lead_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER lead_disputes_count AFTER INSERT OR DELETE OR UPDATE OF lead_id ON lead_disputes
  FOR EACH ROW EXECUTE FUNCTION lead_disputes_count();
--> statement-breakpoint
UPDATE leads l SET dispute_count = c.n
  FROM (SELECT lead_id, count(*)::int AS n FROM lead_disputes GROUP BY lead_id) c
  WHERE l.id = c.lead_id;
--> statement-breakpoint
-- The fold of 0012 with the disputes figure, the 'all' dimension and the span table; same lock
-- order (tables in the order written, each in key order), same slots.
CREATE OR REPLACE FUNCTION leads_fold_reports() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_span_totals AS t (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, span, start, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, p.span, p.start, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
      CROSS JOIN LATERAL (VALUES ('dekad', date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date + least((extract(day FROM (d."timestamp" AT TIME ZONE tz))::int - 1) / 10, 2) * 10),
                           ('quarter', date_trunc('quarter', (d."timestamp" AT TIME ZONE tz))::date)) p(span, start)
    ) x
    GROUP BY owner, dim, span, start, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, span, start, key
    ON CONFLICT (owner, dim, span, start, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_span_totals AS t (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, span, start, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, p.span, p.start, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
      CROSS JOIN LATERAL (VALUES ('dekad', date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date + least((extract(day FROM (d."timestamp" AT TIME ZONE tz))::int - 1) / 10, 2) * 10),
                           ('quarter', date_trunc('quarter', (d."timestamp" AT TIME ZONE tz))::date)) p(span, start)
    ) x
    GROUP BY owner, dim, span, start, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, span, start, key
    ON CONFLICT (owner, dim, span, start, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
  ELSE
    INSERT INTO report_time_totals AS t (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, bucket, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT o.owner, date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00') AS bucket,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid), (d.publisher_id)) o(owner)
    ) x
    GROUP BY owner, bucket
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, bucket
    ON CONFLICT (owner, bucket, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_day_totals AS t (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, day, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, (d."timestamp" AT TIME ZONE tz)::date AS day, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, day, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, day, key
    ON CONFLICT (owner, dim, day, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_month_totals AS t (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, month, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date AS month, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
    ) x
    GROUP BY owner, dim, month, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, month, key
    ON CONFLICT (owner, dim, month, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
    INSERT INTO report_span_totals AS t (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes)
    SELECT owner, dim, span, start, key, s, sum(calls), sum(payable), sum(dur), sum(pay), sum(rev), sum(rc), sum(disp) FROM (
      SELECT k.owner, k.dim, p.span, p.start, k.key,
             d.n AS calls,
             d.n * (d.status = 'approved')::int AS payable,
             d.n * coalesce(d.duration_seconds, d.call_duration * 60)::bigint AS dur,
             d.n * CASE WHEN d.status = 'approved' THEN d.payout ELSE 0 END AS pay,
             d.n * coalesce(d.revenue, 0) AS rev,
             d.n * (d.revenue IS NOT NULL)::int AS rc,
             d.n * d.dispute_count::bigint AS disp
      FROM (SELECT 1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM new_rows UNION ALL SELECT -1 AS n, publisher_id, offer_id, state, status, "timestamp", payout, revenue, duration_seconds, call_duration, dispute_count FROM old_rows) d CROSS JOIN LATERAL (VALUES ('00000000-0000-0000-0000-000000000000'::uuid, 'offer', d.offer_id::text), ('00000000-0000-0000-0000-000000000000'::uuid, 'publisher', d.publisher_id::text),
                    ('00000000-0000-0000-0000-000000000000'::uuid, 'state', coalesce(d.state, '')), ('00000000-0000-0000-0000-000000000000'::uuid, 'status', d.status), ('00000000-0000-0000-0000-000000000000'::uuid, 'all', ''),
                    (d.publisher_id, 'offer', d.offer_id::text), (d.publisher_id, 'state', coalesce(d.state, '')),
                    (d.publisher_id, 'all', '')) k(owner, dim, key)
      CROSS JOIN LATERAL (VALUES ('dekad', date_trunc('month', (d."timestamp" AT TIME ZONE tz))::date + least((extract(day FROM (d."timestamp" AT TIME ZONE tz))::int - 1) / 10, 2) * 10),
                           ('quarter', date_trunc('quarter', (d."timestamp" AT TIME ZONE tz))::date)) p(span, start)
    ) x
    GROUP BY owner, dim, span, start, key
    HAVING sum(calls) <> 0 OR sum(payable) <> 0 OR sum(dur) <> 0 OR sum(pay) <> 0 OR sum(rev) <> 0 OR sum(rc) <> 0 OR sum(disp) <> 0
    ORDER BY owner, dim, span, start, key
    ON CONFLICT (owner, dim, span, start, key, slot) DO UPDATE
      SET calls = t.calls + excluded.calls, payable = t.payable + excluded.payable,
          duration_seconds = t.duration_seconds + excluded.duration_seconds,
          payout = t.payout + excluded.payout, revenue = t.revenue + excluded.revenue,
          revenue_calls = t.revenue_calls + excluded.revenue_calls,
          disputes = t.disputes + excluded.disputes;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_truncate_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_time_totals;
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  DELETE FROM report_span_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebuild_report_totals() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
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
-- The day, month and span tables in zone tz (what a change of the network's zone recounts):
-- days from the leads, the coarser blocks summed from the days.
CREATE OR REPLACE FUNCTION rebuild_report_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM report_day_totals;
  DELETE FROM report_month_totals;
  DELETE FROM report_span_totals;
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
END
$$;
--> statement-breakpoint
-- The covering indexes of 0012 with the disputes column, and the span table's.
DROP INDEX report_time_totals_cover;
--> statement-breakpoint
DROP INDEX report_day_totals_cover;
--> statement-breakpoint
DROP INDEX report_month_totals_cover;
--> statement-breakpoint
CREATE INDEX report_time_totals_cover ON report_time_totals (owner, bucket)
  INCLUDE (calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes);
--> statement-breakpoint
CREATE INDEX report_day_totals_cover ON report_day_totals (owner, dim, day)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes);
--> statement-breakpoint
CREATE INDEX report_month_totals_cover ON report_month_totals (owner, dim, month)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes);
--> statement-breakpoint
CREATE INDEX report_span_totals_cover ON report_span_totals (owner, dim, span, start)
  INCLUDE (key, calls, payable, duration_seconds, payout, revenue, revenue_calls, disputes);
--> statement-breakpoint
-- Recount every rollup with the new figure, dimension and blocks.
SELECT rebuild_report_totals();
