-- Issue 28, item 4: one kind of day. The lead day totals of 0006 (lead_daily_totals,
-- lead_publisher_daily_totals) counted UTC days, while every list, report and chart reads days of
-- the network's time zone, so they could answer a range of days only in UTC networks. They now
-- count days of the network's zone (settings.timezone, read once per statement), and a change of
-- the zone recounts them with the report days. payout_daily_totals (UTC days) had one reader, the
-- network's total paid, which payout_day_totals (zone days, 0021) answers as well: it goes.
DROP TABLE "payout_daily_totals" CASCADE;
--> statement-breakpoint
-- One statement's rows as changes (new_rows +1, old_rows -1), gathered into arrays: a trigger's
-- transition tables depend on its operation, and the upserts below stay static SQL (plans kept).
CREATE OR REPLACE FUNCTION leads_fold_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tz text := coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC');
  pubs uuid[] := '{}';
  sts text[] := '{}';
  days date[] := '{}';
  ns integer[] := '{}';
  pays numeric[] := '{}';
  durs bigint[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT array_agg(publisher_id), array_agg(status), array_agg(("timestamp" AT TIME ZONE tz)::date),
           array_agg(1), array_agg(payout), array_agg(call_duration::bigint)
    INTO pubs, sts, days, ns, pays, durs FROM new_rows;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT pubs || array_agg(o.publisher_id), sts || array_agg(o.status),
           days || array_agg((o."timestamp" AT TIME ZONE tz)::date), ns || array_agg(-1),
           pays || array_agg(-o.payout), durs || array_agg(-o.call_duration::bigint)
    INTO pubs, sts, days, ns, pays, durs FROM old_rows o;
  END IF;
  PERFORM fold_lead_total_rows(pubs, sts, days, ns, pays, durs, pg_backend_pid() % 8);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- One grouped upsert per table, in the same order and key order as 0006, into slot s.
CREATE FUNCTION fold_lead_total_rows(
  pubs uuid[], sts text[], days date[], ns integer[], pays numeric[], durs bigint[], s integer
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_totals AS t (publisher_id, status, slot, leads, payout, call_duration)
  SELECT d.publisher_id, d.status, s, sum(d.n), sum(d.payout), sum(d.dur)
  FROM unnest(pubs, sts, days, ns, pays, durs) AS d(publisher_id, status, day, n, payout, dur)
  GROUP BY 1, 2
  HAVING sum(d.n) <> 0 OR sum(d.payout) <> 0 OR sum(d.dur) <> 0
  ORDER BY 1, 2
  ON CONFLICT (publisher_id, status, slot) DO UPDATE
    SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout,
        call_duration = t.call_duration + excluded.call_duration;
  INSERT INTO lead_daily_totals AS t (day, status, slot, leads, payout)
  SELECT d.day, d.status, s, sum(d.n), sum(d.payout)
  FROM unnest(sts, days, ns, pays) AS d(status, day, n, payout)
  GROUP BY 1, 2
  HAVING sum(d.n) <> 0 OR sum(d.payout) <> 0
  ORDER BY 1, 2
  ON CONFLICT (day, status, slot) DO UPDATE
    SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
  INSERT INTO lead_publisher_daily_totals AS t (publisher_id, day, slot, leads, payout)
  SELECT d.publisher_id, d.day, s, sum(d.n), sum(d.payout)
  FROM unnest(pubs, days, ns, pays) AS d(publisher_id, day, n, payout)
  GROUP BY 1, 2
  HAVING sum(d.n) <> 0 OR sum(d.payout) <> 0
  ORDER BY 1, 2
  ON CONFLICT (publisher_id, day, slot) DO UPDATE
    SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
END
$$;
--> statement-breakpoint
-- Payouts: the per-publisher totals only (payout_day_totals, zone days, is kept since 0021).
CREATE OR REPLACE FUNCTION payouts_fold_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  pubs uuid[] := '{}';
  ns integer[] := '{}';
  amounts numeric[] := '{}';
BEGIN
  IF TG_OP <> 'DELETE' THEN
    SELECT array_agg(publisher_id), array_agg(1), array_agg(amount) INTO pubs, ns, amounts FROM new_rows;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    SELECT pubs || array_agg(o.publisher_id), ns || array_agg(-1), amounts || array_agg(-o.amount)
    INTO pubs, ns, amounts FROM old_rows o;
  END IF;
  INSERT INTO payout_totals AS t (publisher_id, slot, payouts, amount)
  SELECT d.publisher_id, pg_backend_pid() % 8, sum(d.n), sum(d.amount)
  FROM unnest(pubs, ns, amounts) AS d(publisher_id, n, amount)
  GROUP BY 1
  HAVING sum(d.n) <> 0 OR sum(d.amount) <> 0
  ORDER BY 1
  ON CONFLICT (publisher_id, slot) DO UPDATE
    SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payouts_truncate_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The two lead day tables in zone tz: what a change of the network's zone recounts.
CREATE FUNCTION rebuild_lead_days(tz text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM lead_daily_totals;
  DELETE FROM lead_publisher_daily_totals;
  INSERT INTO lead_daily_totals (day, status, slot, leads, payout)
  SELECT ("timestamp" AT TIME ZONE tz)::date, status, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2;
  INSERT INTO lead_publisher_daily_totals (publisher_id, day, slot, leads, payout)
  SELECT publisher_id, ("timestamp" AT TIME ZONE tz)::date, 0, count(*), sum(payout)
  FROM leads GROUP BY 1, 2;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION settings_timezone_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM rebuild_report_days(NEW.timezone);
  PERFORM rebuild_lead_days(NEW.timezone);
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- rebuild_totals() (0006, 0012, 0020) with zone days and without payout_daily_totals.
CREATE OR REPLACE FUNCTION rebuild_totals() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads, payouts IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM lead_totals;
  DELETE FROM payout_totals;
  INSERT INTO lead_totals (publisher_id, status, slot, leads, payout, call_duration)
  SELECT publisher_id, status, 0, count(*), sum(payout), sum(call_duration)
  FROM leads GROUP BY publisher_id, status;
  PERFORM rebuild_lead_days(coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'));
  INSERT INTO payout_totals (publisher_id, slot, payouts, amount)
  SELECT publisher_id, 0, count(*), sum(amount) FROM payouts GROUP BY publisher_id;
  PERFORM rebuild_report_totals();
  PERFORM rebuild_balances();
END
$$;
--> statement-breakpoint
-- The rows already there, in the zone now set.
SELECT rebuild_lead_days(coalesce((SELECT timezone FROM settings WHERE id = 1), 'UTC'));
