-- A batch's bills in one write per campaign, day and buyer when no limit is near (issue 26's
-- 1,500 calls/s; issue 31's budgets that hold).
--
-- settle_lead_bills (0046) billed the batch's kept calls one by one through
-- campaign_bill_write: four conditional writes per call (the day's slot, the campaign's spend,
-- the buyer's balance, the checks after them), about a third of a 32-call batch's time in the
-- database. When every campaign of the batch takes all its calls with room to spare (active,
-- and neither its budget, nor any of its days' cap, nor its buyer's prepaid balance would be
-- reached even by the whole batch and one more call), billing call by call would bill every
-- call and pause nothing, so the batch is billed in one write per (campaign, day), per campaign
-- and per buyer, with the same sums (the balance by the sum of each call's cents). Otherwise
-- (a limit binds within this batch) the calls are billed one by one as before, so a refusal,
-- a pause or the order in which calls take the last slots stays exactly what it was.
CREATE OR REPLACE FUNCTION settle_lead_bills() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  w record;
BEGIN
  -- Rows whose lead is not there (an insert that became an update of another row) are dropped.
  DELETE FROM pg_temp.lead_bill_rows b
   WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = b.lead_id AND l.billed_amount IS NOT NULL);
  IF NOT EXISTS (SELECT 1 FROM pg_temp.lead_bill_rows) THEN
    RETURN;
  END IF;
  PERFORM 1 FROM campaigns x
   WHERE x.id IN (SELECT campaign_id FROM pg_temp.lead_bill_rows) ORDER BY x.id FOR UPDATE;
  INSERT INTO buyer_billing (buyer_id)
  SELECT DISTINCT buyer_id FROM pg_temp.lead_bill_rows ORDER BY 1
  ON CONFLICT (buyer_id) DO NOTHING;
  PERFORM 1 FROM buyer_billing b
   WHERE b.buyer_id IN (SELECT buyer_id FROM pg_temp.lead_bill_rows) ORDER BY b.buyer_id FOR UPDATE;

  IF NOT EXISTS (
    -- A campaign gone, not active, or whose budget the batch and one more call would pass
    -- (campaign_bill_write pauses at spent + one call's price over the budget).
    SELECT 1
      FROM (SELECT campaign_id, sum(amount) AS total FROM pg_temp.lead_bill_rows GROUP BY 1) g
      LEFT JOIN campaigns x ON x.id = g.campaign_id
     WHERE x.id IS NULL OR x.status <> 'active'
        OR (x.budget IS NOT NULL
            AND x.spent + g.total + greatest(coalesce(x.price_per_call, 0), 0.01) > x.budget)
    UNION ALL
    -- A day whose cap the batch would reach (the call that reaches it pauses the campaign).
    SELECT 1
      FROM (SELECT campaign_id, day, count(*) AS n FROM pg_temp.lead_bill_rows GROUP BY 1, 2) g
      JOIN campaigns x ON x.id = g.campaign_id
      LEFT JOIN campaign_spend_days d ON d.campaign_id = g.campaign_id AND d.day = g.day
     WHERE x.daily_cap IS NOT NULL AND coalesce(d.calls, 0) + g.n >= x.daily_cap
    UNION ALL
    -- A prepaid buyer whose balance the batch would bring under one call of its campaigns.
    SELECT 1
      FROM (SELECT b.buyer_id, sum(round(b.amount * 100))::bigint AS cents,
                   max(greatest(round(coalesce(x.price_per_call, 0) * 100), 1)) AS floor_cents
              FROM pg_temp.lead_bill_rows b JOIN campaigns x ON x.id = b.campaign_id
             GROUP BY 1) g
      JOIN buyer_billing bb ON bb.buyer_id = g.buyer_id
     WHERE bb.mode = 'prepaid' AND bb.balance_cents - g.cents < g.floor_cents
  ) THEN
    INSERT INTO campaign_spend_days AS d (campaign_id, day, calls, spent)
    SELECT campaign_id, day, count(*), sum(amount) FROM pg_temp.lead_bill_rows
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (campaign_id, day) DO UPDATE SET calls = d.calls + excluded.calls,
                                                 spent = d.spent + excluded.spent;
    UPDATE campaigns x SET spent = x.spent + g.total
      FROM (SELECT campaign_id, sum(amount) AS total FROM pg_temp.lead_bill_rows GROUP BY 1) g
     WHERE x.id = g.campaign_id;
    UPDATE buyer_billing b SET balance_cents = b.balance_cents - g.cents, updated_at = now()
      FROM (SELECT buyer_id, sum(round(amount * 100))::bigint AS cents
              FROM pg_temp.lead_bill_rows GROUP BY 1) g
     WHERE b.buyer_id = g.buyer_id;
    -- The 80% notice, as campaign_bill_write gives it (with the spend after the batch).
    WITH hit AS (
      UPDATE campaigns x SET alerted_pct = 80
       WHERE x.id IN (SELECT campaign_id FROM pg_temp.lead_bill_rows)
         AND x.budget IS NOT NULL AND x.spent >= 0.8 * x.budget AND x.alerted_pct < 80
      RETURNING x.id, x.spent, x.budget)
    INSERT INTO campaign_alerts (campaign_id, kind, message)
    SELECT id, 'budget_80', format('%s of the budget of %s is spent.', spent, budget) FROM hit;
    DELETE FROM pg_temp.lead_bill_rows;
    RETURN;
  END IF;

  FOR r IN SELECT * FROM pg_temp.lead_bill_rows ORDER BY ts, lead_id LOOP
    w := campaign_bill_write(r.campaign_id, r.day, r.amount);
    IF w.outcome <> 'billed' THEN
      UPDATE leads SET billed_amount = NULL, revenue = r.revenue,
                       bill_outcome = w.outcome, bill_reason = w.reason
       WHERE id = r.lead_id;
    END IF;
  END LOOP;
  DELETE FROM pg_temp.lead_bill_rows;
END
$fn$;
