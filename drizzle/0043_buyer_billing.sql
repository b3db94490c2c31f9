CREATE TABLE "buyer_billing" (
	"buyer_id" uuid PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'postpaid' NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_billing_mode_check" CHECK ("buyer_billing"."mode" in ('prepaid','postpaid'))
);
--> statement-breakpoint
CREATE TABLE "buyer_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_deposits_amount_check" CHECK ("buyer_deposits"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "buyer_invoice_lines" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"campaign_id" uuid,
	"campaign_name" text NOT NULL,
	"calls" integer NOT NULL,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "buyer_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"buyer_id" uuid NOT NULL,
	"month" date NOT NULL,
	"currency" text NOT NULL,
	"time_zone" text NOT NULL,
	"total_cents" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "buyer_invoices_buyer_month_unique" UNIQUE("buyer_id","month")
);
--> statement-breakpoint
ALTER TABLE "buyer_billing" ADD CONSTRAINT "buyer_billing_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_deposits" ADD CONSTRAINT "buyer_deposits_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_deposits" ADD CONSTRAINT "buyer_deposits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_invoice_lines" ADD CONSTRAINT "buyer_invoice_lines_invoice_id_buyer_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."buyer_invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_invoices" ADD CONSTRAINT "buyer_invoices_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_deposits_buyer_idx" ON "buyer_deposits" USING btree ("buyer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "buyer_invoice_lines_invoice_idx" ON "buyer_invoice_lines" USING btree ("invoice_id","day","id");--> statement-breakpoint
CREATE INDEX "buyer_invoices_buyer_idx" ON "buyer_invoices" USING btree ("buyer_id","month" DESC NULLS LAST);--> statement-breakpoint
-- Issue 31, item 6: the buyer's billing. leads_campaign_bill (drizzle/0042) draws the buyer's
-- balance (buyer_billing) after the campaign's budget, in one conditional upsert, so a prepaid
-- buyer's balance never goes below zero whatever the concurrency: a call it cannot pay is
-- recorded, not billed (bill_outcome 'balance'), and the buyer's active campaigns pause when the
-- balance cannot pay the next call.
--
-- buyer_pause_campaigns: pauses the buyer's active campaigns for their balance; a campaign
-- another call holds is skipped (that call pauses it in its turn), so two calls of two
-- campaigns never wait for each other.
CREATE FUNCTION buyer_pause_campaigns(p_buyer uuid) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE r record;
BEGIN
  FOR r IN SELECT x.id FROM campaigns x WHERE x.buyer_id = p_buyer AND x.status = 'active'
           FOR UPDATE SKIP LOCKED LOOP
    PERFORM campaign_pause(r.id, 'balance',
      'The prepaid balance is spent; the campaign resumes at the next deposit.', 'paused');
  END LOOP;
END $fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_campaign_bill() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_ref text;
  c record;
  v_tz text; v_day date;
  v_outcome text := 'billed'; v_reason text;
  v_amount numeric; v_got integer; v_spent numeric;
  v_cents bigint; v_mode text; v_balance bigint;
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
    INSERT INTO campaign_spend_days AS d (campaign_id, day, calls, spent)
    VALUES (c.id, v_day, 1, v_amount)
    ON CONFLICT (campaign_id, day) DO UPDATE SET calls = d.calls + 1, spent = d.spent + v_amount
      WHERE c.daily_cap IS NULL OR d.calls < c.daily_cap
    RETURNING d.calls INTO v_got;
    IF NOT FOUND THEN
      v_outcome := 'daily_cap';
      v_reason := format('Over the campaign''s daily cap of %s calls', c.daily_cap);
    ELSE
      UPDATE campaigns x SET spent = x.spent + v_amount
       WHERE x.id = c.id AND (x.budget IS NULL OR x.spent + v_amount <= x.budget)
      RETURNING x.spent INTO v_spent;
      IF FOUND THEN
        -- The buyer's balance, drawn last in one conditional upsert: a prepaid buyer's never
        -- goes below zero (a postpaid buyer's is only kept).
        v_cents := round(v_amount * 100)::bigint;
        INSERT INTO buyer_billing AS b (buyer_id, balance_cents) VALUES (c.buyer_id, -v_cents)
        ON CONFLICT (buyer_id) DO UPDATE SET balance_cents = b.balance_cents - v_cents, updated_at = now()
          WHERE b.mode = 'postpaid' OR b.balance_cents - v_cents >= 0
        RETURNING b.mode, b.balance_cents INTO v_mode, v_balance;
        IF NOT FOUND THEN
          UPDATE campaigns x SET spent = x.spent - v_amount WHERE x.id = c.id;
          UPDATE campaign_spend_days d SET calls = d.calls - 1, spent = d.spent - v_amount
           WHERE d.campaign_id = c.id AND d.day = v_day;
          v_outcome := 'balance';
          v_reason := 'Over the buyer''s prepaid balance';
          PERFORM buyer_pause_campaigns(c.buyer_id);
        END IF;
      ELSE
        UPDATE campaign_spend_days d SET calls = d.calls - 1, spent = d.spent - v_amount
         WHERE d.campaign_id = c.id AND d.day = v_day;
        v_outcome := 'budget';
        v_reason := format('Over the campaign''s budget of %s', c.budget);
        PERFORM campaign_pause(c.id, 'budget',
          format('The budget of %s is spent.', c.budget), 'budget_100');
      END IF;
      IF v_outcome = 'billed' THEN
        NEW.billed_amount := v_amount;
        NEW.revenue := coalesce(NEW.revenue, v_amount);
        v_reason := format('Billed %s', v_amount);
        IF c.budget IS NOT NULL AND v_spent + greatest(coalesce(c.price_per_call, 0), 0.01) > c.budget THEN
          PERFORM campaign_pause(c.id, 'budget',
            format('The budget of %s is spent.', c.budget), 'budget_100');
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
      END IF;
    END IF;
  END IF;
  NEW.bill_outcome := v_outcome;
  NEW.bill_reason := v_reason;
  RETURN NEW;
END $fn$;
