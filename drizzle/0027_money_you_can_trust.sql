CREATE TABLE "payout_holds" (
	"publisher_id" uuid PRIMARY KEY NOT NULL,
	"under_review" boolean DEFAULT false NOT NULL,
	"review_note" text,
	"review_by" uuid,
	"review_at" timestamp with time zone,
	"release_note" text,
	"released_by" uuid,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "statement_counters" (
	"publisher_id" uuid NOT NULL,
	"year" integer NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "statement_counters_pkey" PRIMARY KEY("publisher_id","year")
);
--> statement-breakpoint
ALTER TABLE "payment_details" ALTER COLUMN "method" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_details" ALTER COLUMN "account" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "holder_name" text;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "routing_number" text;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "account_type" text;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "tax_form_key" text;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "tax_form_name" text;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "tax_form_uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "tax_form_reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_details" ADD COLUMN "tax_form_reviewed_by" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "statement_year" integer;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "statement_seq" integer;--> statement-breakpoint
ALTER TABLE "publisher_balances" ADD COLUMN "recorded" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "publisher_balances" drop column "owed";--> statement-breakpoint
ALTER TABLE "publisher_balances" ADD COLUMN "owed" numeric GENERATED ALWAYS AS (earned + adjustments - recorded - paid) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "publisher_balances_owed_idx" ON "publisher_balances" USING btree ("owed" DESC NULLS FIRST,"publisher_id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "report_day_totals" ADD COLUMN "revenue_payable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_day_totals" ADD COLUMN "revenue_payout" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_month_totals" ADD COLUMN "revenue_payable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_month_totals" ADD COLUMN "revenue_payout" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_span_totals" ADD COLUMN "revenue_payable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_span_totals" ADD COLUMN "revenue_payout" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_time_totals" ADD COLUMN "revenue_payable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_time_totals" ADD COLUMN "revenue_payout" numeric DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "company_address" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "payout_holds" text[] DEFAULT '{tax_form,payment_details,blocked,under_review}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_review_by_users_id_fk" FOREIGN KEY ("review_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_holds" ADD CONSTRAINT "payout_holds_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_counters" ADD CONSTRAINT "statement_counters_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_tax_form_reviewed_by_users_id_fk" FOREIGN KEY ("tax_form_reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_statement_key" ON "payouts" USING btree ("publisher_id","statement_year","statement_seq");--> statement-breakpoint
-- Issue 27: a payout in a recorded run is not paid. publisher_balances keeps `recorded` (in a
-- run, not marked paid) and `paid` (marked paid) apart; owed = earned + adjustments - recorded
-- - paid is what the next run pays. Marking a run paid updates its payouts' status: the update
-- branch moves the amounts from recorded to paid.
CREATE OR REPLACE FUNCTION payouts_fold_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for its own event: one branch per event.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO publisher_balances AS b (publisher_id, recorded, paid)
    SELECT publisher_id, coalesce(sum(amount) FILTER (WHERE status <> 'paid'), 0), coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0)
    FROM new_rows GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE
      SET recorded = b.recorded + excluded.recorded, paid = b.paid + excluded.paid;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO publisher_balances AS b (publisher_id, recorded, paid)
    SELECT publisher_id, -coalesce(sum(amount) FILTER (WHERE status <> 'paid'), 0), -coalesce(sum(amount) FILTER (WHERE status = 'paid'), 0)
    FROM old_rows GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE
      SET recorded = b.recorded + excluded.recorded, paid = b.paid + excluded.paid;
  ELSE
    INSERT INTO publisher_balances AS b (publisher_id, recorded, paid)
    SELECT publisher_id, coalesce(sum(r), 0), coalesce(sum(p), 0) FROM (
      SELECT publisher_id, CASE WHEN status = 'paid' THEN 0 ELSE amount END AS r,
             CASE WHEN status = 'paid' THEN amount ELSE 0 END AS p FROM new_rows
      UNION ALL
      SELECT publisher_id, CASE WHEN status = 'paid' THEN 0 ELSE -amount END,
             CASE WHEN status = 'paid' THEN -amount ELSE 0 END FROM old_rows
    ) d
    GROUP BY publisher_id HAVING sum(r) <> 0 OR sum(p) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE
      SET recorded = b.recorded + excluded.recorded, paid = b.paid + excluded.paid;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION rebuild_balances() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads, payouts, payout_adjustments IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM publisher_balances;
  INSERT INTO publisher_balances (publisher_id, earned, adjustments, recorded, paid)
  SELECT publisher_id, sum(e), sum(a), sum(r), sum(p) FROM (
    SELECT publisher_id, payout AS e, 0 AS a, 0 AS r, 0 AS p FROM leads WHERE status = 'approved'
    UNION ALL SELECT publisher_id, 0, amount, 0, 0 FROM payout_adjustments
    UNION ALL SELECT publisher_id, 0, 0, CASE WHEN status = 'paid' THEN 0 ELSE amount END,
                     CASE WHEN status = 'paid' THEN amount ELSE 0 END FROM payouts
  ) d GROUP BY publisher_id;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION leads_truncate_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'leads' THEN UPDATE publisher_balances SET earned = 0 WHERE earned <> 0;
  ELSIF TG_TABLE_NAME = 'payouts' THEN
    UPDATE publisher_balances SET paid = 0, recorded = 0 WHERE paid <> 0 OR recorded <> 0;
  ELSE UPDATE publisher_balances SET adjustments = 0 WHERE adjustments <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Payouts recorded before payout runs existed were the spec's "record a payout": money sent.
UPDATE payouts SET status = 'paid' WHERE run_id IS NULL AND status = 'recorded';
--> statement-breakpoint
SELECT rebuild_balances();
--> statement-breakpoint
-- Statement numbers of the payouts already there: per publisher and year of the payout's date
-- (UTC), in the order they were made.
UPDATE payouts p SET statement_year = n.y, statement_seq = n.seq
FROM (
  SELECT id, extract(year FROM "date" AT TIME ZONE 'UTC')::int AS y,
         row_number() OVER (PARTITION BY publisher_id, extract(year FROM "date" AT TIME ZONE 'UTC') ORDER BY "date", id)::int AS seq
  FROM payouts
) n WHERE n.id = p.id;
--> statement-breakpoint
INSERT INTO statement_counters (publisher_id, year, last)
SELECT publisher_id, statement_year, max(statement_seq) FROM payouts
WHERE statement_year IS NOT NULL GROUP BY 1, 2;
--> statement-breakpoint
ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_account_type_check" CHECK ("account_type" IS NULL OR "account_type" IN ('checking', 'savings'));
