-- Maintained aggregates of leads and payouts (issue 12). Statement-level AFTER triggers with
-- transition tables fold each statement's rows into the totals tables (schema.ts: leadTotals,
-- leadDailyTotals, leadPublisherDailyTotals, payoutTotals, payoutDailyTotals) with one grouped
-- upsert per table, in the writing transaction, whatever writes (services, raw SQL, ingestion):
-- a bulk insert of a million rows is one upsert per table, not a million.
-- Locks: every statement upserts the tables in the same order (one statement each, in the
-- order written), each in key order, so two
-- writers never wait on each other in opposite orders. Each writer adds into its own slot
-- (backend pid modulo 8), so concurrent writers of one key (today's pending leads) mostly
-- update different rows instead of queueing on one row until commit. Readers sum the slots.
-- Rows whose figures return to zero stay (they add nothing); rebuild_totals() recomputes all.

CREATE FUNCTION leads_fold_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_totals AS t (publisher_id, status, slot, leads, payout, call_duration)
    SELECT publisher_id, status, s, sum(n), sum(payout), sum(dur) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
    ) d
    GROUP BY publisher_id, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0 OR sum(dur) <> 0
    ORDER BY publisher_id, status
    ON CONFLICT (publisher_id, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout,
          call_duration = t.call_duration + excluded.call_duration;
    INSERT INTO lead_daily_totals AS t (day, status, slot, leads, payout)
    SELECT day, status, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
    ) d
    GROUP BY day, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY day, status
    ON CONFLICT (day, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
    INSERT INTO lead_publisher_daily_totals AS t (publisher_id, day, slot, leads, payout)
    SELECT publisher_id, day, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
    ) d
    GROUP BY publisher_id, day
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY publisher_id, day
    ON CONFLICT (publisher_id, day, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO lead_totals AS t (publisher_id, status, slot, leads, payout, call_duration)
    SELECT publisher_id, status, s, sum(n), sum(payout), sum(dur) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY publisher_id, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0 OR sum(dur) <> 0
    ORDER BY publisher_id, status
    ON CONFLICT (publisher_id, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout,
          call_duration = t.call_duration + excluded.call_duration;
    INSERT INTO lead_daily_totals AS t (day, status, slot, leads, payout)
    SELECT day, status, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY day, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY day, status
    ON CONFLICT (day, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
    INSERT INTO lead_publisher_daily_totals AS t (publisher_id, day, slot, leads, payout)
    SELECT publisher_id, day, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY publisher_id, day
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY publisher_id, day
    ON CONFLICT (publisher_id, day, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
  ELSE
    INSERT INTO lead_totals AS t (publisher_id, status, slot, leads, payout, call_duration)
    SELECT publisher_id, status, s, sum(n), sum(payout), sum(dur) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
      UNION ALL
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY publisher_id, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0 OR sum(dur) <> 0
    ORDER BY publisher_id, status
    ON CONFLICT (publisher_id, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout,
          call_duration = t.call_duration + excluded.call_duration;
    INSERT INTO lead_daily_totals AS t (day, status, slot, leads, payout)
    SELECT day, status, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
      UNION ALL
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY day, status
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY day, status
    ON CONFLICT (day, status, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
    INSERT INTO lead_publisher_daily_totals AS t (publisher_id, day, slot, leads, payout)
    SELECT publisher_id, day, s, sum(n), sum(payout) FROM (
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             1 AS n, payout, call_duration::bigint AS dur FROM new_rows
      UNION ALL
      SELECT publisher_id, status, ("timestamp" AT TIME ZONE 'UTC')::date AS day,
             -1 AS n, -payout AS payout, -call_duration::bigint AS dur FROM old_rows
    ) d
    GROUP BY publisher_id, day
    HAVING sum(n) <> 0 OR sum(payout) <> 0
    ORDER BY publisher_id, day
    ON CONFLICT (publisher_id, day, slot) DO UPDATE
      SET leads = t.leads + excluded.leads, payout = t.payout + excluded.payout;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION payouts_fold_totals() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s integer := pg_backend_pid() % 8;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO payout_totals AS t (publisher_id, slot, payouts, amount)
    SELECT publisher_id, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, 1 AS n, amount FROM new_rows
    ) d
    GROUP BY publisher_id
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY publisher_id
    ON CONFLICT (publisher_id, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
    INSERT INTO payout_daily_totals AS t (day, slot, payouts, amount)
    SELECT day, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, 1 AS n, amount FROM new_rows
    ) d
    GROUP BY day
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO payout_totals AS t (publisher_id, slot, payouts, amount)
    SELECT publisher_id, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, -1 AS n, -amount AS amount FROM old_rows
    ) d
    GROUP BY publisher_id
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY publisher_id
    ON CONFLICT (publisher_id, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
    INSERT INTO payout_daily_totals AS t (day, slot, payouts, amount)
    SELECT day, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, -1 AS n, -amount AS amount FROM old_rows
    ) d
    GROUP BY day
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  ELSE
    INSERT INTO payout_totals AS t (publisher_id, slot, payouts, amount)
    SELECT publisher_id, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, 1 AS n, amount FROM new_rows
      UNION ALL
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, -1 AS n, -amount AS amount FROM old_rows
    ) d
    GROUP BY publisher_id
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY publisher_id
    ON CONFLICT (publisher_id, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
    INSERT INTO payout_daily_totals AS t (day, slot, payouts, amount)
    SELECT day, s, sum(n), sum(amount) FROM (
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, 1 AS n, amount FROM new_rows
      UNION ALL
      SELECT publisher_id, ("date" AT TIME ZONE 'UTC')::date AS day, -1 AS n, -amount AS amount FROM old_rows
    ) d
    GROUP BY day
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    ORDER BY day
    ON CONFLICT (day, slot) DO UPDATE
      SET payouts = t.payouts + excluded.payouts, amount = t.amount + excluded.amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- TRUNCATE has no transition table: the totals of a truncated table are emptied with it.
CREATE FUNCTION leads_truncate_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_totals;
  DELETE FROM lead_daily_totals;
  DELETE FROM lead_publisher_daily_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION payouts_truncate_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM payout_totals;
  DELETE FROM payout_daily_totals;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Recomputes every total from leads and payouts, one row per group (slot 0). Takes the write
-- locks first, so no write lands between the wipe and the recount. Never needed in normal
-- operation; after a bulk load with the triggers disabled: select rebuild_totals();
CREATE FUNCTION rebuild_totals() RETURNS void LANGUAGE plpgsql AS $$
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
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_totals_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_totals();
--> statement-breakpoint
CREATE TRIGGER leads_totals_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_totals();
--> statement-breakpoint
CREATE TRIGGER leads_totals_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_totals();
--> statement-breakpoint
CREATE TRIGGER leads_totals_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_truncate_totals();
--> statement-breakpoint
CREATE TRIGGER payouts_totals_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_totals();
--> statement-breakpoint
CREATE TRIGGER payouts_totals_update AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_totals();
--> statement-breakpoint
CREATE TRIGGER payouts_totals_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_totals();
--> statement-breakpoint
CREATE TRIGGER payouts_totals_truncate AFTER TRUNCATE ON payouts
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_truncate_totals();
--> statement-breakpoint
-- Backfill: the rows already there (the triggers above hold off concurrent writes until the
-- migration commits, so nothing is counted twice or missed).
SELECT rebuild_totals();
