-- Ingestion bills a batch's calls at its end (issue 31 speed; issue 26's 1,500 calls/s).
--
-- leads_campaign_bill (0042, 0043) took the campaign's row, its day's spend row and the buyer's
-- balance row at each call's insert, and held them to the commit: inside `ingest_calls` that is
-- the whole batch, so every other batch of the same campaign (a campaign takes most of an
-- offer's calls) waited for it. At 1M leads, c=50, one approved campaign per offer: 190–300
-- calls/s, 7.4 ms of lock wait per call in the trigger (pg_stat_user_functions), where the same
-- bench without campaigns made ~1,000.
--
-- Now, inside `ingest_calls` (portal.bill_deferred = on), the trigger attributes the call and
-- runs the checks that need no lock (the offer's verdict, the campaign's status, dates, buffer,
-- states and hours, read as before), then marks a call that passes them billed and keeps it in
-- pg_temp.lead_bill_rows. At the end of the batch `settle_lead_bills` takes the batch's
-- campaigns' rows in id order, then its buyers' balance rows in id order (every writer takes
-- campaign, then day, then balance, so two batches cannot deadlock), and bills each kept call
-- in time order with `campaign_bill_write`, the same conditional writes the trigger made: the
-- daily cap's slot, the budget, the prepaid balance, never exceeded. A call refused there (the
-- budget, cap or balance ran out within the batch, or the campaign was paused meanwhile) is
-- written back unbilled with its reason, while the batch's figures are still being kept
-- (fold_deferred), so the folded totals only ever see the final row. Outside `ingest_calls`
-- (an admin's judgement, an import row) the trigger bills at once through the same function.
CREATE OR REPLACE FUNCTION campaign_bill_write(p_campaign uuid, p_day date, p_amount numeric,
                                               OUT outcome text, OUT reason text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c record;
  v_got integer; v_spent numeric;
  v_cents bigint; v_mode text; v_balance bigint;
BEGIN
  -- Locked first: whoever bills a campaign holds its row before its day's and its buyer's.
  SELECT x.* INTO c FROM campaigns x WHERE x.id = p_campaign FOR UPDATE;
  IF NOT FOUND THEN
    outcome := 'inactive'; reason := 'Campaign deleted';
    RETURN;
  END IF;
  IF c.status <> 'active' THEN
    outcome := 'inactive';
    reason := CASE WHEN c.status = 'paused'
      THEN 'Campaign paused' || coalesce(': ' || c.status_reason, '')
      ELSE format('Campaign %s', c.status) END;
    RETURN;
  END IF;
  outcome := 'billed';
  INSERT INTO campaign_spend_days AS d (campaign_id, day, calls, spent)
  VALUES (c.id, p_day, 1, p_amount)
  ON CONFLICT (campaign_id, day) DO UPDATE SET calls = d.calls + 1, spent = d.spent + p_amount
    WHERE c.daily_cap IS NULL OR d.calls < c.daily_cap
  RETURNING d.calls INTO v_got;
  IF NOT FOUND THEN
    outcome := 'daily_cap';
    reason := format('Over the campaign''s daily cap of %s calls', c.daily_cap);
    RETURN;
  END IF;
  UPDATE campaigns x SET spent = x.spent + p_amount
   WHERE x.id = c.id AND (x.budget IS NULL OR x.spent + p_amount <= x.budget)
  RETURNING x.spent INTO v_spent;
  IF NOT FOUND THEN
    UPDATE campaign_spend_days d SET calls = d.calls - 1, spent = d.spent - p_amount
     WHERE d.campaign_id = c.id AND d.day = p_day;
    outcome := 'budget';
    reason := format('Over the campaign''s budget of %s', c.budget);
    PERFORM campaign_pause(c.id, 'budget', format('The budget of %s is spent.', c.budget), 'budget_100');
    RETURN;
  END IF;
  -- The buyer's balance, drawn last in one conditional upsert: a prepaid buyer's never goes
  -- below zero (a postpaid buyer's is only kept).
  v_cents := round(p_amount * 100)::bigint;
  INSERT INTO buyer_billing AS b (buyer_id, balance_cents) VALUES (c.buyer_id, -v_cents)
  ON CONFLICT (buyer_id) DO UPDATE SET balance_cents = b.balance_cents - v_cents, updated_at = now()
    WHERE b.mode = 'postpaid' OR b.balance_cents - v_cents >= 0
  RETURNING b.mode, b.balance_cents INTO v_mode, v_balance;
  IF NOT FOUND THEN
    UPDATE campaigns x SET spent = x.spent - p_amount WHERE x.id = c.id;
    UPDATE campaign_spend_days d SET calls = d.calls - 1, spent = d.spent - p_amount
     WHERE d.campaign_id = c.id AND d.day = p_day;
    outcome := 'balance';
    reason := 'Over the buyer''s prepaid balance';
    PERFORM buyer_pause_campaigns(c.buyer_id);
    RETURN;
  END IF;
  reason := format('Billed %s', p_amount);
  IF c.budget IS NOT NULL AND v_spent + greatest(coalesce(c.price_per_call, 0), 0.01) > c.budget THEN
    PERFORM campaign_pause(c.id, 'budget', format('The budget of %s is spent.', c.budget), 'budget_100');
  ELSIF c.budget IS NOT NULL AND v_spent >= 0.8 * c.budget THEN
    UPDATE campaigns x SET alerted_pct = 80 WHERE x.id = c.id AND x.alerted_pct < 80;
    IF FOUND THEN
      INSERT INTO campaign_alerts (campaign_id, kind, message)
      VALUES (c.id, 'budget_80', format('%s of the budget of %s is spent.', v_spent, c.budget));
    END IF;
  END IF;
  IF v_mode = 'prepaid' AND v_balance < greatest(round(coalesce(c.price_per_call, 0) * 100), 1) THEN
    PERFORM buyer_pause_campaigns(c.buyer_id);
  END IF;
  IF c.daily_cap IS NOT NULL AND v_got >= c.daily_cap THEN
    PERFORM campaign_pause(c.id, 'daily_cap',
      format('The daily cap of %s calls is reached; the campaign resumes tomorrow.', c.daily_cap),
      'paused');
  END IF;
END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_campaign_bill() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_ref text;
  c record;
  v_tz text; v_day date;
  v_outcome text := 'billed'; v_reason text;
  v_amount numeric;
  w record;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.judged_at IS NOT DISTINCT FROM OLD.judged_at
     AND NOT (OLD.bill_outcome = 'short'
              AND coalesce(NEW.duration_seconds, 0) > coalesce(OLD.duration_seconds, 0)) THEN
    RETURN NEW;
  END IF;
  -- Attribution: at the lead's first write, and again when it is judged without a campaign
  -- (a campaign approved, or a buyer id sent, between the call's first event and its end).
  IF NEW.campaign_id IS NULL THEN
    v_ref := nullif(btrim(NEW.tags->>'buyer'), '');
    NEW.buyer_ref := coalesce(NEW.buyer_ref, left(v_ref, 200));
    IF v_ref IS NOT NULL THEN
      NEW.campaign_id := (SELECT m.campaign_id FROM integration_external_ids m
         WHERE m.kind = 'campaign' AND m.external_id = v_ref
           AND m.integration_id IN (SELECT i.id FROM integrations i
                                     WHERE coalesce(i.call_scope, i.id) = NEW.integration_id)
         LIMIT 1);
      IF NEW.campaign_id IS NULL
         AND v_ref ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN
        NEW.campaign_id := (SELECT x.id FROM campaigns x WHERE x.id = v_ref::uuid
                              AND x.status IN ('active', 'paused'));
      END IF;
    END IF;
    IF NEW.campaign_id IS NULL THEN
      NEW.campaign_id := (SELECT CASE WHEN count(*) = 1 THEN (array_agg(x.id))[1] END
        FROM (SELECT x.id FROM campaigns x WHERE x.offer_id = NEW.offer_id
                AND x.status IN ('active', 'paused') LIMIT 2) x);
    END IF;
  END IF;
  IF NEW.campaign_id IS NULL OR NEW.judged_at IS NULL OR NEW.billed_amount IS NOT NULL THEN
    RETURN NEW;
  END IF;

  SELECT x.* INTO c FROM campaigns x WHERE x.id = NEW.campaign_id;
  IF NOT FOUND THEN RETURN NEW; END IF;
  v_tz := coalesce((SELECT s.timezone FROM settings s WHERE s.id = 1), 'UTC');
  v_day := (NEW."timestamp" AT TIME ZONE v_tz)::date;

  IF NEW.status <> 'approved' THEN
    v_outcome := 'offer_rules';
    v_reason := 'Not payable under the offer''s rules' || coalesce(': ' || NEW.status_reason, '');
  ELSIF c.status <> 'active' THEN
    v_outcome := 'inactive';
    v_reason := CASE WHEN c.status = 'paused'
      THEN 'Campaign paused' || coalesce(': ' || c.status_reason, '')
      ELSE format('Campaign %s', c.status) END;
  ELSIF (c.start_date IS NOT NULL AND v_day < c.start_date)
        OR (c.end_date IS NOT NULL AND v_day > c.end_date) THEN
    v_outcome := 'dates';
    v_reason := format('Call on %s, outside the campaign''s dates', v_day);
  ELSIF c.buffer_seconds IS NOT NULL AND coalesce(NEW.duration_seconds, 0) < c.buffer_seconds THEN
    v_outcome := 'short';
    v_reason := format('Duration %s s under the campaign''s %s s billable duration',
                       coalesce(NEW.duration_seconds, 0), c.buffer_seconds);
  ELSIF cardinality(c.allowed_states) > 0
        AND (NEW.state IS NULL OR NOT (upper(NEW.state) = ANY (c.allowed_states))) THEN
    v_outcome := 'state';
    v_reason := format('Caller state %s is not among the campaign''s states (%s)',
                       coalesce(NEW.state, 'unknown'), array_to_string(c.allowed_states, ', '));
  ELSIF c.hours_time_zone IS NOT NULL
        AND NOT offer_open_at(c.hours_time_zone, c.open_days, c.open_from, c.open_to, NEW."timestamp") THEN
    v_outcome := 'closed';
    v_reason := 'Call outside the campaign''s hours';
  END IF;

  IF v_outcome = 'billed' THEN
    v_amount := coalesce(NEW.revenue, c.price_per_call, 0);
    IF current_setting('portal.bill_deferred', true) = 'on' THEN
      -- Billed for now; settle_lead_bills takes the slots at the batch's end or writes it back.
      INSERT INTO pg_temp.lead_bill_rows (lead_id, campaign_id, buyer_id, day, ts, amount, revenue)
      VALUES (NEW.id, c.id, c.buyer_id, v_day, NEW."timestamp", v_amount, NEW.revenue);
      v_reason := format('Billed %s', v_amount);
    ELSE
      w := campaign_bill_write(c.id, v_day, v_amount);
      v_outcome := w.outcome;
      v_reason := w.reason;
    END IF;
    IF v_outcome = 'billed' THEN
      NEW.billed_amount := v_amount;
      NEW.revenue := coalesce(NEW.revenue, v_amount);
    END IF;
  END IF;
  NEW.bill_outcome := v_outcome;
  NEW.bill_reason := v_reason;
  RETURN NEW;
END $fn$;
--> statement-breakpoint
-- The batch's kept calls, billed in time order after their campaigns' and buyers' rows are
-- taken in id order; a call refused there is written back unbilled, its revenue as it came.
CREATE OR REPLACE FUNCTION settle_lead_bills() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  r record;
  w record;
BEGIN
  -- Rows whose lead is not there (an insert that became an update of another row) are dropped.
  DELETE FROM pg_temp.lead_bill_rows b
   WHERE NOT EXISTS (SELECT 1 FROM leads l WHERE l.id = b.lead_id AND l.billed_amount IS NOT NULL);
  PERFORM 1 FROM campaigns x
   WHERE x.id IN (SELECT campaign_id FROM pg_temp.lead_bill_rows) ORDER BY x.id FOR UPDATE;
  INSERT INTO buyer_billing (buyer_id)
  SELECT DISTINCT buyer_id FROM pg_temp.lead_bill_rows ORDER BY 1
  ON CONFLICT (buyer_id) DO NOTHING;
  PERFORM 1 FROM buyer_billing b
   WHERE b.buyer_id IN (SELECT buyer_id FROM pg_temp.lead_bill_rows) ORDER BY b.buyer_id FOR UPDATE;
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ingest_calls(batch jsonb)
RETURNS TABLE (ord integer, out_id uuid, out_status text, out_missing text, out_failed text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c jsonb;
  r record;
BEGIN
  -- The leads' figures are folded once, at the end (0037), and their campaigns billed once (above).
  IF to_regclass('pg_temp.lead_fold_rows') IS NULL THEN
    CREATE TEMP TABLE lead_fold_rows ON COMMIT DELETE ROWS AS
      SELECT 1::smallint AS n, id, publisher_id, offer_id, state, status, "timestamp", payout,
             revenue, duration_seconds, call_duration, dispute_count, campaign_id
      FROM leads WITH NO DATA;
  END IF;
  IF to_regclass('pg_temp.lead_bill_rows') IS NULL THEN
    CREATE TEMP TABLE lead_bill_rows (
      lead_id uuid NOT NULL, campaign_id uuid NOT NULL, buyer_id uuid NOT NULL, day date NOT NULL,
      ts timestamptz NOT NULL, amount numeric NOT NULL, revenue numeric
    ) ON COMMIT DELETE ROWS;
  END IF;
  PERFORM set_config('portal.fold_deferred', 'on', true);
  PERFORM set_config('portal.bill_deferred', 'on', true);
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
  PERFORM set_config('portal.bill_deferred', 'off', true);
  PERFORM settle_lead_bills();
  PERFORM set_config('portal.fold_deferred', 'off', true);
  PERFORM fold_lead_batch();
END
$fn$;
