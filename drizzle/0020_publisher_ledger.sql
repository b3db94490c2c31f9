CREATE TABLE "payment_details" (
	"publisher_id" uuid PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"account" text NOT NULL,
	"tax_form_status" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"note" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_adjustments_amount_check" CHECK ("payout_adjustments"."amount" <> 0),
	CONSTRAINT "payout_adjustments_reason_check" CHECK ("payout_adjustments"."reason" in ('bonus','clawback','correction'))
);
--> statement-breakpoint
CREATE TABLE "payout_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"lead_id" uuid,
	"seq" smallint,
	"adjustment_id" uuid,
	"amount" numeric(12, 2) NOT NULL,
	CONSTRAINT "payout_lines_shape_check" CHECK (("payout_lines"."kind" = 'lead' and "payout_lines"."lead_id" is not null and "payout_lines"."seq" % 2 = 1 and "payout_lines"."amount" >= 0)
        or ("payout_lines"."kind" = 'reversal' and "payout_lines"."lead_id" is not null and "payout_lines"."seq" % 2 = 0 and "payout_lines"."amount" <= 0)
        or ("payout_lines"."kind" = 'adjustment' and "payout_lines"."adjustment_id" is not null and "payout_lines"."lead_id" is null)
        or ("payout_lines"."kind" = 'advance' and "payout_lines"."lead_id" is null and "payout_lines"."adjustment_id" is null and "payout_lines"."amount" > 0)
        or ("payout_lines"."kind" = 'credit' and "payout_lines"."lead_id" is null and "payout_lines"."adjustment_id" is null and "payout_lines"."amount" < 0))
);
--> statement-breakpoint
CREATE TABLE "payout_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text DEFAULT 'run' NOT NULL,
	"status" text DEFAULT 'recorded' NOT NULL,
	"period_from" date,
	"period_to" date,
	"total" numeric(12, 2) DEFAULT '0' NOT NULL,
	"payouts" integer DEFAULT 0 NOT NULL,
	"reference" text,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"void_reason" text,
	CONSTRAINT "payout_runs_status_check" CHECK ("payout_runs"."status" in ('recorded','paid','void'))
);
--> statement-breakpoint
CREATE TABLE "publisher_balances" (
	"publisher_id" uuid PRIMARY KEY NOT NULL,
	"earned" numeric DEFAULT '0' NOT NULL,
	"adjustments" numeric DEFAULT '0' NOT NULL,
	"paid" numeric DEFAULT '0' NOT NULL,
	"owed" numeric GENERATED ALWAYS AS (earned + adjustments - paid) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "status" text DEFAULT 'recorded' NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "period_from" date;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "period_to" date;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "min_payout" numeric(12, 2) DEFAULT '50.00' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_details" ADD CONSTRAINT "payment_details_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_adjustments" ADD CONSTRAINT "payout_adjustments_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_adjustments" ADD CONSTRAINT "payout_adjustments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_adjustment_id_payout_adjustments_id_fk" FOREIGN KEY ("adjustment_id") REFERENCES "public"."payout_adjustments"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_runs" ADD CONSTRAINT "payout_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "publisher_balances" ADD CONSTRAINT "publisher_balances_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payout_adjustments_publisher_idx" ON "payout_adjustments" USING btree ("publisher_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_lead_seq_key" ON "payout_lines" USING btree ("lead_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_adjustment_key" ON "payout_lines" USING btree ("adjustment_id");--> statement-breakpoint
CREATE INDEX "payout_lines_payout_idx" ON "payout_lines" USING btree ("payout_id","kind");--> statement-breakpoint
CREATE INDEX "payout_lines_publisher_kind_idx" ON "payout_lines" USING btree ("publisher_id","kind");--> statement-breakpoint
CREATE INDEX "payout_runs_created_id_idx" ON "payout_runs" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "publisher_balances_owed_idx" ON "publisher_balances" USING btree ("owed" DESC NULLS FIRST,"publisher_id" DESC NULLS FIRST);--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_run_id_payout_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payout_runs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_run_idx" ON "payouts" USING btree ("run_id");--> statement-breakpoint
-- The publisher ledger (issue 14). publisher_balances holds each publisher's earned (approved
-- leads' payouts), adjustments and paid, kept by statement-level triggers with transition
-- tables in the writing transaction, like the totals of 0006: one grouped upsert per statement,
-- in publisher order. Only statements that change an approved lead's payout touch a balance
-- row (HAVING sum <> 0), so pending traffic never queues on it. owed is a stored generated
-- column with an index: the Balances tab pages by owed through it.
CREATE FUNCTION leads_fold_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO publisher_balances AS b (publisher_id, earned)
    SELECT publisher_id, sum(payout) FROM new_rows WHERE status = 'approved'
    GROUP BY publisher_id HAVING sum(payout) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET earned = b.earned + excluded.earned;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO publisher_balances AS b (publisher_id, earned)
    SELECT publisher_id, -sum(payout) FROM old_rows WHERE status = 'approved'
    GROUP BY publisher_id HAVING sum(payout) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET earned = b.earned + excluded.earned;
  ELSE
    INSERT INTO publisher_balances AS b (publisher_id, earned)
    SELECT publisher_id, sum(p) FROM (
      SELECT publisher_id, payout AS p FROM new_rows WHERE status = 'approved'
      UNION ALL
      SELECT publisher_id, -payout AS p FROM old_rows WHERE status = 'approved'
    ) d
    GROUP BY publisher_id HAVING sum(p) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET earned = b.earned + excluded.earned;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION payouts_fold_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for its own event: one branch per event.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO publisher_balances AS b (publisher_id, paid)
    SELECT publisher_id, sum(amount) FROM new_rows
    GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET paid = b.paid + excluded.paid;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO publisher_balances AS b (publisher_id, paid)
    SELECT publisher_id, -sum(amount) FROM old_rows
    GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET paid = b.paid + excluded.paid;
  ELSE
    INSERT INTO publisher_balances AS b (publisher_id, paid)
    SELECT publisher_id, sum(a) FROM (
      SELECT publisher_id, amount AS a FROM new_rows
      UNION ALL
      SELECT publisher_id, -amount AS a FROM old_rows
    ) d
    GROUP BY publisher_id HAVING sum(a) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET paid = b.paid + excluded.paid;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION adjustments_fold_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A transition table exists only for its own event: one branch per event.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO publisher_balances AS b (publisher_id, adjustments)
    SELECT publisher_id, sum(amount) FROM new_rows
    GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET adjustments = b.adjustments + excluded.adjustments;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO publisher_balances AS b (publisher_id, adjustments)
    SELECT publisher_id, -sum(amount) FROM old_rows
    GROUP BY publisher_id HAVING sum(amount) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET adjustments = b.adjustments + excluded.adjustments;
  ELSE
    INSERT INTO publisher_balances AS b (publisher_id, adjustments)
    SELECT publisher_id, sum(a) FROM (
      SELECT publisher_id, amount AS a FROM new_rows
      UNION ALL
      SELECT publisher_id, -amount AS a FROM old_rows
    ) d
    GROUP BY publisher_id HAVING sum(a) <> 0 ORDER BY publisher_id
    ON CONFLICT (publisher_id) DO UPDATE SET adjustments = b.adjustments + excluded.adjustments;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Recounts every balance from leads, payouts and adjustments (after a load with the triggers off).
CREATE FUNCTION rebuild_balances() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE leads, payouts, payout_adjustments IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM publisher_balances;
  INSERT INTO publisher_balances (publisher_id, earned, adjustments, paid)
  SELECT publisher_id, sum(e), sum(a), sum(p) FROM (
    SELECT publisher_id, payout AS e, 0 AS a, 0 AS p FROM leads WHERE status = 'approved'
    UNION ALL SELECT publisher_id, 0, amount, 0 FROM payout_adjustments
    UNION ALL SELECT publisher_id, 0, 0, amount FROM payouts
  ) d GROUP BY publisher_id;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_balances_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_balances();
--> statement-breakpoint
CREATE TRIGGER leads_balances_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_balances();
--> statement-breakpoint
CREATE TRIGGER leads_balances_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_fold_balances();
--> statement-breakpoint
CREATE TRIGGER payouts_balances_insert AFTER INSERT ON payouts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_balances();
--> statement-breakpoint
CREATE TRIGGER payouts_balances_update AFTER UPDATE ON payouts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_balances();
--> statement-breakpoint
CREATE TRIGGER payouts_balances_delete AFTER DELETE ON payouts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION payouts_fold_balances();
--> statement-breakpoint
CREATE TRIGGER adjustments_balances_insert AFTER INSERT ON payout_adjustments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adjustments_fold_balances();
--> statement-breakpoint
CREATE TRIGGER adjustments_balances_update AFTER UPDATE ON payout_adjustments
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION adjustments_fold_balances();
--> statement-breakpoint
CREATE TRIGGER adjustments_balances_delete AFTER DELETE ON payout_adjustments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION adjustments_fold_balances();
--> statement-breakpoint
-- The balances of the data already there.
SELECT rebuild_balances();
--> statement-breakpoint
-- rebuild_totals() (0006, 0012) recounts the balances too: the bench calls it after a load.
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
  PERFORM rebuild_balances();
END
$$;
--> statement-breakpoint
-- TRUNCATE has no transition table: the balances' share of a truncated table goes with it.
CREATE FUNCTION leads_truncate_balances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'leads' THEN UPDATE publisher_balances SET earned = 0 WHERE earned <> 0;
  ELSIF TG_TABLE_NAME = 'payouts' THEN UPDATE publisher_balances SET paid = 0 WHERE paid <> 0;
  ELSE UPDATE publisher_balances SET adjustments = 0 WHERE adjustments <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_balances_truncate AFTER TRUNCATE ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION leads_truncate_balances();
--> statement-breakpoint
CREATE TRIGGER payouts_balances_truncate AFTER TRUNCATE ON payouts
  FOR EACH STATEMENT EXECUTE FUNCTION leads_truncate_balances();
--> statement-breakpoint
CREATE TRIGGER adjustments_balances_truncate AFTER TRUNCATE ON payout_adjustments
  FOR EACH STATEMENT EXECUTE FUNCTION leads_truncate_balances();
