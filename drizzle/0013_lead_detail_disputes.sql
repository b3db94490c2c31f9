CREATE TABLE "lead_dispute_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"dispute_id" uuid NOT NULL,
	"author_id" uuid,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"file_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_dispute_messages_role_check" CHECK ("lead_dispute_messages"."author_role" in ('publisher','admin'))
);
--> statement-breakpoint
CREATE TABLE "lead_disputes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lead_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	CONSTRAINT "lead_disputes_status_check" CHECK ("lead_disputes"."status" in ('open','accepted','declined'))
);
--> statement-breakpoint
CREATE TABLE "lead_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"event" text,
	"status" text NOT NULL,
	"status_reason" text,
	"duration_seconds" integer,
	"payout" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "recording_key" text;--> statement-breakpoint
ALTER TABLE "lead_dispute_messages" ADD CONSTRAINT "lead_dispute_messages_dispute_id_lead_disputes_id_fk" FOREIGN KEY ("dispute_id") REFERENCES "public"."lead_disputes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_dispute_messages" ADD CONSTRAINT "lead_dispute_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_disputes" ADD CONSTRAINT "lead_disputes_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_disputes" ADD CONSTRAINT "lead_disputes_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_dispute_messages_dispute_idx" ON "lead_dispute_messages" USING btree ("dispute_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_disputes_one_open_key" ON "lead_disputes" USING btree ("lead_id") WHERE "lead_disputes"."status" = 'open';--> statement-breakpoint
CREATE INDEX "lead_disputes_lead_idx" ON "lead_disputes" USING btree ("lead_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_disputes_status_updated_id_idx" ON "lead_disputes" USING btree ("status","updated_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "lead_disputes_publisher_idx" ON "lead_disputes" USING btree ("publisher_id");--> statement-breakpoint
CREATE INDEX "lead_events_lead_idx" ON "lead_events" USING btree ("lead_id","id");--> statement-breakpoint
-- The lead timeline: a row per creation and per change of event, status, duration or payout,
-- whatever writes the lead (the postback upsert, the offer rules, an admin, a dispute). A
-- repeated postback writes nothing to leads (the upsert's WHERE), so it records nothing here.
-- Only tracker leads (last_event set) get a creation row: bulk loads of hand-recorded leads
-- stay one insert per row.
CREATE FUNCTION leads_record_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_events (lead_id, event, status, status_reason, duration_seconds, payout)
  VALUES (
    NEW.id,
    CASE WHEN TG_OP = 'INSERT' OR NEW.last_event IS DISTINCT FROM OLD.last_event
         OR NEW.event_rank IS DISTINCT FROM OLD.event_rank THEN NEW.last_event END,
    NEW.status, NEW.status_reason, NEW.duration_seconds, NEW.payout
  );
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_events_insert AFTER INSERT ON leads
  FOR EACH ROW WHEN (NEW.last_event IS NOT NULL) EXECUTE FUNCTION leads_record_event();
--> statement-breakpoint
CREATE TRIGGER leads_events_update AFTER UPDATE ON leads
  FOR EACH ROW WHEN (
    (OLD.last_event, OLD.status, OLD.duration_seconds, OLD.payout, OLD.status_reason)
    IS DISTINCT FROM
    (NEW.last_event, NEW.status, NEW.duration_seconds, NEW.payout, NEW.status_reason)
  ) EXECUTE FUNCTION leads_record_event();
