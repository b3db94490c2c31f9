CREATE TABLE "call_returns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"buyer_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"amount" numeric(12, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decision_note" text,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_returns_lead_id_unique" UNIQUE("lead_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"mailed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "campaign_spend_days" (
	"campaign_id" uuid NOT NULL,
	"day" date NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"spent" numeric(12, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "campaign_spend_days_pkey" PRIMARY KEY("campaign_id","day")
);
--> statement-breakpoint
ALTER TABLE "integration_external_ids" DROP CONSTRAINT "integration_external_ids_target_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_by" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "offer_id" uuid;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "price_per_call" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "buffer_seconds" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "daily_cap" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "allowed_states" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hours_time_zone" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "open_days" smallint[];--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "open_from" time;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "open_to" time;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "spent" numeric(12, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "alerted_pct" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "campaign_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "buyer_ref" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "billed_amount" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "bill_outcome" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "bill_reason" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "buyer_return_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "buyer_sees_full_caller" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "call_returns" ADD CONSTRAINT "call_returns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_returns" ADD CONSTRAINT "call_returns_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_returns" ADD CONSTRAINT "call_returns_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_alerts" ADD CONSTRAINT "campaign_alerts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_spend_days" ADD CONSTRAINT "campaign_spend_days_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_returns_created_id_idx" ON "call_returns" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "call_returns_buyer_idx" ON "call_returns" USING btree ("buyer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaign_alerts_unmailed_idx" ON "campaign_alerts" USING btree ("created_at") WHERE "campaign_alerts"."mailed_at" is null;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD CONSTRAINT "integration_external_ids_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_offer_live_idx" ON "campaigns" USING btree ("offer_id") WHERE "campaigns"."status" in ('active', 'paused');--> statement-breakpoint
CREATE INDEX "integration_external_ids_campaign_idx" ON "integration_external_ids" USING btree ("campaign_id") WHERE "integration_external_ids"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_campaign_ts_id_idx" ON "leads" USING btree ("campaign_id","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "leads"."campaign_id" is not null;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_spent_check" CHECK ("campaigns"."spent" >= 0);--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_status_check" CHECK ("campaigns"."status" in ('pending','active','paused','ended','rejected'));--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD CONSTRAINT "integration_external_ids_target_check" CHECK (num_nonnulls("integration_external_ids"."publisher_id", "integration_external_ids"."offer_id", "integration_external_ids"."campaign_id") = 1
        and ("integration_external_ids"."kind" <> 'publisher' or "integration_external_ids"."publisher_id" is not null)
        and ("integration_external_ids"."kind" <> 'offer' or "integration_external_ids"."offer_id" is not null)
        and ("integration_external_ids"."kind" <> 'campaign' or "integration_external_ids"."campaign_id" is not null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('publisher_signed_up','application_submitted','dispute_opened','campaign_created','fraud_velocity','dispute_reply','publisher_approved','publisher_blocked','application_approved','application_rejected','dispute_answered','dispute_accepted','dispute_declined','mfa_reset','email_changed','campaign_approved','campaign_rejected','campaign_paused','campaign_budget','call_return_decided'));--> statement-breakpoint
-- Issue 31: campaigns that existed before the lifecycle stay pending until an admin approves
-- them with an offer and a price.
--
-- campaign_pause: an automatic pause (budget, end date, daily cap) of an active campaign, with
-- the sentence the buyer reads and the alert the campaign job mails. True when it paused.
CREATE FUNCTION campaign_pause(p_campaign uuid, p_by text, p_reason text, p_alert text)
RETURNS boolean LANGUAGE plpgsql AS $fn$
BEGIN
  UPDATE campaigns SET status = 'paused', paused_by = p_by, paused_at = now(), status_reason = p_reason,
                       alerted_pct = CASE WHEN p_alert = 'budget_100' THEN 100 ELSE alerted_pct END
   WHERE id = p_campaign AND status = 'active';
  IF NOT FOUND THEN RETURN false; END IF;
  INSERT INTO campaign_alerts (campaign_id, kind, message) VALUES (p_campaign, p_alert, p_reason);
  RETURN true;
END $fn$;
--> statement-breakpoint
-- leads_campaign_bill (BEFORE INSERT OR UPDATE on leads): the buyer's side of a call, beside
-- ingest_call and untouched by it.
-- Attribution, when the lead is first written or judged without a campaign: the tracker's buyer id (the `buyer` tag, which
-- the `buyer` mapping field fills) attached to a campaign on an integration of the call's
-- tracker account, or a campaign's own id; else the offer's single live campaign.
-- Billing, when the offer's rules judge the call (judged_at set or moved), or again when the
-- duration grows past the campaign's buffer after a "short" verdict; never twice. In order: the
-- offer must pay the call, the campaign be active and in its dates, the call meet the
-- campaign's buffer, states and hours; then the daily cap's slot (campaign_spend_days, the slot
-- technique of offer_cap_usage) and the budget (one conditional update of campaigns.spent) are
-- taken, the budget last and the day's slot given back when it is full, so concurrent calls
-- can never exceed either. Amount: the tracker's revenue if sent, else the campaign's price.
CREATE FUNCTION leads_campaign_bill() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_ref text;
  c record;
  v_tz text; v_day date;
  v_outcome text := 'billed'; v_reason text;
  v_amount numeric; v_got integer; v_spent numeric;
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
      IF NOT FOUND THEN
        UPDATE campaign_spend_days d SET calls = d.calls - 1, spent = d.spent - v_amount
         WHERE d.campaign_id = c.id AND d.day = v_day;
        v_outcome := 'budget';
        v_reason := format('Over the campaign''s budget of %s', c.budget);
        PERFORM campaign_pause(c.id, 'budget',
          format('The budget of %s is spent.', c.budget), 'budget_100');
      ELSE
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
--> statement-breakpoint
CREATE TRIGGER leads_campaign_bill BEFORE INSERT OR UPDATE OF judged_at, duration_seconds ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_campaign_bill();
