-- Issue 29: the rebuild recounts the report rollups in one pass of the leads per grain.
--
-- rebuild_report_days (0045) made ten rows of every lead (one per owner, dim and key the rollups
-- keep), grouped the ten million rows at 1M leads by sorting them on their text keys, and summed
-- the months, dekads and quarters from the day rows by sorting those again. At 1M leads the day
-- table's statement alone ran 76 s on a 2-core machine, 30–40 s of `select rebuild_totals()`'s
-- 70–80 s on a faster one. Here each grain is one scan of the leads grouped by hash with
-- GROUPING SETS: the nine groupings the ten rows come from ((publisher) twice: the network's
-- by-publisher row and the publisher's own 'all' row), ~6 s for the days at 1M leads on the
-- same machine, the rows already summed before they are sorted for the insert. The whole
-- `select rebuild_totals()` at 1M leads on a 2-core machine (shared_buffers 128 MB), tables full:
-- 323 s before, 167 s after; what is left is mostly writing the ~9M rows and their indexes.
-- The figures are those of 0045 (the reports test compares the rollups folded call by call with
-- a rebuild's); the quarter hours are grouped the same way. Lock order and the queue's folding
-- are unchanged. The rollups are emptied by TRUNCATE rather than DELETE: a delete of every row
-- wrote each one again and left the tables twice their size until a vacuum (the reports read them
-- meanwhile wait for the commit, as the lead writes do). work_mem is raised for the rebuilds only (the function's own setting, restored
-- when it returns): the hash tables of 1M leads' groupings take ~230 MB; more spill to disk.

-- The leads' figures at one grain of the network's zone tz ('day', 'dekad', 'month',
-- 'quarter'), a row per owner, dim, period and key, as the report rollups keep them.
CREATE FUNCTION report_cube(tz text, grain text)
RETURNS TABLE (owner uuid, dim text, period date, key text, calls bigint, payable bigint,
               duration_seconds bigint, payout numeric, revenue numeric, revenue_calls bigint,
               revenue_payable bigint, revenue_payout numeric, disputes bigint)
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN m.owned THEN x.publisher_id ELSE '00000000-0000-0000-0000-000000000000'::uuid END,
         m.dim, x.period,
         CASE m.dim WHEN 'offer' THEN x.offer_id::text WHEN 'publisher' THEN x.publisher_id::text
                    WHEN 'state' THEN x.state WHEN 'status' THEN x.status
                    WHEN 'buyer' THEN coalesce(x.buyer_id::text, '')
                    WHEN 'campaign' THEN coalesce(x.campaign_id::text, '') ELSE '' END,
         x.calls, x.payable, x.dur, x.pay, x.rev, x.rc, x.rp, x.rpay, x.disp
  FROM (
    SELECT CASE grain
             WHEN 'month' THEN date_trunc('month', d.day)::date
             WHEN 'dekad' THEN date_trunc('month', d.day)::date + least((extract(day FROM d.day)::int - 1) / 10, 2) * 10
             WHEN 'quarter' THEN date_trunc('quarter', d.day)::date
             ELSE d.day END AS period,
           d.publisher_id, d.offer_id, coalesce(d.state, '') AS state, d.status, d.campaign_id, c.buyer_id,
           -- A bit per column left out of the row's grouping: 32 publisher … 1 buyer.
           GROUPING(d.publisher_id, d.offer_id, coalesce(d.state, ''), d.status, d.campaign_id, c.buyer_id) AS g,
           count(*) AS calls, count(*) FILTER (WHERE d.status = 'approved') AS payable,
           coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0) AS dur,
           coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0) AS pay,
           coalesce(sum(d.revenue), 0) AS rev, count(d.revenue) AS rc,
           count(*) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL) AS rp,
           coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL), 0) AS rpay,
           coalesce(sum(d.dispute_count), 0) AS disp
    FROM (SELECT l.*, (l."timestamp" AT TIME ZONE tz)::date AS day FROM leads l) d
    LEFT JOIN campaigns c ON c.id = d.campaign_id
    GROUP BY GROUPING SETS ((1, d.offer_id), (1, d.publisher_id), (1, coalesce(d.state, '')),
                            (1, d.status), (1), (1, c.buyer_id), (1, d.campaign_id),
                            (1, d.publisher_id, d.offer_id), (1, d.publisher_id, coalesce(d.state, '')))
  ) x
  JOIN (VALUES (47, 'offer', false), (31, 'publisher', false), (55, 'state', false),
               (59, 'status', false), (63, 'all', false), (62, 'buyer', false),
               (61, 'campaign', false), (15, 'offer', true), (23, 'state', true),
               (31, 'all', true)) m(g, dim, owned) ON m.g = x.g
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebuild_report_days(tz text) RETURNS void LANGUAGE plpgsql
SET work_mem = '256MB' AS $$
BEGIN
  PERFORM fold_report_deltas(true);
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  PERFORM fold_report_deltas(true);
  TRUNCATE report_day_totals, report_month_totals, report_span_totals, payout_day_totals;
  -- Each in its primary key's order: the indexes grow at their right edge.
  INSERT INTO report_day_totals (owner, dim, day, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, period, key, 0, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes
  FROM report_cube(tz, 'day') ORDER BY 1, 2, 3, 4;
  INSERT INTO report_month_totals (owner, dim, month, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, period, key, 0, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes
  FROM report_cube(tz, 'month') ORDER BY 1, 2, 3, 4;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, 'dekad', period, key, 0, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes
  FROM report_cube(tz, 'dekad') ORDER BY 1, 2, 4, 5;
  INSERT INTO report_span_totals (owner, dim, span, start, key, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT owner, dim, 'quarter', period, key, 0, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes
  FROM report_cube(tz, 'quarter') ORDER BY 1, 2, 4, 5;
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
CREATE OR REPLACE FUNCTION rebuild_report_totals() RETURNS void LANGUAGE plpgsql
SET work_mem = '256MB' AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('fold_report_deltas', 15));
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM report_deltas;
  TRUNCATE report_time_totals, payout_time_totals;
  -- The network's quarter hours and each publisher's, in one pass (a row per lead before).
  INSERT INTO report_time_totals (owner, bucket, slot, calls, payable, duration_seconds, payout, revenue, revenue_calls, revenue_payable, revenue_payout, disputes)
  SELECT CASE WHEN GROUPING(d.publisher_id) = 1 THEN '00000000-0000-0000-0000-000000000000'::uuid ELSE d.publisher_id END,
         date_bin('15 minutes', d."timestamp", timestamptz '2000-01-01 00:00+00'), 0,
         count(*), count(*) FILTER (WHERE d.status = 'approved'),
         coalesce(sum(coalesce(d.duration_seconds, d.call_duration * 60)::bigint), 0),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved'), 0),
         coalesce(sum(d.revenue), 0), count(d.revenue),
         count(*) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL),
         coalesce(sum(d.payout) FILTER (WHERE d.status = 'approved' AND d.revenue IS NOT NULL), 0),
         coalesce(sum(d.dispute_count), 0)
  FROM leads d
  GROUP BY GROUPING SETS ((2), (2, d.publisher_id)) ORDER BY 1, 2;
  INSERT INTO payout_time_totals (bucket, slot, payouts, amount)
  SELECT date_bin('15 minutes', "date", timestamptz '2000-01-01 00:00+00'), 0, count(*), sum(amount)
  FROM payouts GROUP BY 1 ORDER BY 1;
  PERFORM rebuild_report_days(tz);
END
$$;
--> statement-breakpoint
-- The lead days (0029), emptied the same way.
CREATE OR REPLACE FUNCTION rebuild_lead_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;
  TRUNCATE lead_daily_totals, lead_publisher_daily_totals;
  INSERT INTO lead_daily_totals (day, status, slot, leads, payout)
  SELECT ("timestamp" AT TIME ZONE tz)::date, status, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2;
  INSERT INTO lead_publisher_daily_totals (publisher_id, day, slot, leads, payout)
  SELECT publisher_id, ("timestamp" AT TIME ZONE tz)::date, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2 ORDER BY 1, 2;
END
$$;
