CREATE TABLE "offer_script_acknowledgements" (
	"offer_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"acknowledged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_script_acknowledgements_offer_id_publisher_id_version_pk" PRIMARY KEY("offer_id","publisher_id","version")
);
--> statement-breakpoint
CREATE TABLE "offer_script_versions" (
	"offer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"body" text NOT NULL,
	"created_by" uuid,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_script_versions_offer_id_version_pk" PRIMARY KEY("offer_id","version")
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "script_version" integer;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "script_unacknowledged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "script_version" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "script_ack_mode" text DEFAULT 'flag' NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "script_ack_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "offer_script_acknowledgements" ADD CONSTRAINT "offer_script_acknowledgements_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_script_acknowledgements" ADD CONSTRAINT "offer_script_acknowledgements_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_script_versions" ADD CONSTRAINT "offer_script_versions_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_script_versions" ADD CONSTRAINT "offer_script_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_script_ack_mode_check" CHECK ("offers"."script_ack_mode" in ('flag','hold'));--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_script_ack_days_check" CHECK ("offers"."script_ack_days" between 0 and 365);--> statement-breakpoint
-- Issue 33: offers that already have script instructions start at version 1 (no author).
INSERT INTO offer_script_versions (offer_id, version, body)
SELECT id, 1, script_instructions FROM offers WHERE script_instructions IS NOT NULL;
--> statement-breakpoint
UPDATE offers SET script_version = 1 WHERE script_instructions IS NOT NULL;
--> statement-breakpoint
-- The script version in force at the call, and the check of its acknowledgement, written by a
-- BEFORE trigger on leads rather than inside ingest_call: every way a lead is written (the
-- postback, batches, replay, the console, an import) records it alike, and ingest_call stays
-- as it is. The cost on the hot path: one primary-key read of the offer's row (which
-- ingest_call has just read) per new lead; the version's date and the publisher's
-- acknowledgement (two primary-key index reads) only when a call is judged payable on an offer
-- with a script. A call judged payable while its publisher has not acknowledged the version
-- within the offer's days is flagged (script_unacknowledged), and on a "hold" offer kept
-- pending with the reason, for an admin to decide.
CREATE FUNCTION leads_script_check() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  o record;
  v_published timestamptz;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT x.script_version, x.script_ack_mode, x.script_ack_days INTO o
      FROM offers x WHERE x.id = NEW.offer_id;
    NEW.script_version := o.script_version;
  END IF;
  IF NEW.script_version IS NULL OR NEW.status <> 'approved' OR NEW.rule_outcome IS DISTINCT FROM 'payable'
     OR NEW.status_overridden_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    SELECT x.script_ack_mode, x.script_ack_days INTO o FROM offers x WHERE x.id = NEW.offer_id;
  END IF;
  SELECT v.created_at INTO v_published FROM offer_script_versions v
   WHERE v.offer_id = NEW.offer_id AND v.version = NEW.script_version;
  IF v_published IS NULL OR v_published + make_interval(days => o.script_ack_days) > now() THEN
    RETURN NEW;
  END IF;
  IF EXISTS (SELECT 1 FROM offer_script_acknowledgements a
              WHERE a.offer_id = NEW.offer_id AND a.publisher_id = NEW.publisher_id
                AND a.version >= NEW.script_version) THEN
    RETURN NEW;
  END IF;
  NEW.script_unacknowledged := true;
  IF o.script_ack_mode = 'hold' THEN
    NEW.status := 'pending';
    NEW.status_reason := format(
      'Held: the publisher has not acknowledged script version %s (due %s)',
      NEW.script_version, to_char(v_published + make_interval(days => o.script_ack_days), 'YYYY-MM-DD'));
  END IF;
  RETURN NEW;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER leads_script_insert BEFORE INSERT ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_script_check();
--> statement-breakpoint
-- Only when the rules have just judged the call (its first billable event, or a longer call).
CREATE TRIGGER leads_script_judged BEFORE UPDATE ON leads
  FOR EACH ROW WHEN (NEW.judged_at IS DISTINCT FROM OLD.judged_at AND NEW.status = 'approved')
  EXECUTE FUNCTION leads_script_check();
