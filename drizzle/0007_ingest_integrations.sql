CREATE TABLE "ingest_refusals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid,
	"http_status" integer NOT NULL,
	"code" text NOT NULL,
	"reason" text NOT NULL,
	"method" text NOT NULL,
	"query" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body" jsonb,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replayed_at" timestamp with time zone,
	"lead_id" uuid
);
--> statement-breakpoint
CREATE TABLE "integration_external_ids" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"integration_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"publisher_id" uuid,
	"offer_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_external_ids_target_check" CHECK (("integration_external_ids"."kind" = 'publisher' and "integration_external_ids"."publisher_id" is not null and "integration_external_ids"."offer_id" is null)
        or ("integration_external_ids"."kind" = 'offer' and "integration_external_ids"."offer_id" is not null and "integration_external_ids"."publisher_id" is null))
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"allowed_ips" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"field_map" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"accepted_count" bigint DEFAULT 0 NOT NULL,
	"refused_count" bigint DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "integration_id" uuid;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "external_call_id" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "duration_seconds" integer;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "caller" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "revenue" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "recording_url" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "tags" jsonb;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "event_rank" smallint;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "last_event" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "last_event_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "ingest_refusals" ADD CONSTRAINT "ingest_refusals_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD CONSTRAINT "integration_external_ids_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD CONSTRAINT "integration_external_ids_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_external_ids" ADD CONSTRAINT "integration_external_ids_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_refusals_created_idx" ON "ingest_refusals" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ingest_refusals_integration_idx" ON "ingest_refusals" USING btree ("integration_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "integration_external_ids_key" ON "integration_external_ids" USING btree ("integration_id","kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "integrations_name_lower_key" ON "integrations" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "integrations_created_idx" ON "integrations" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_integration_call_key" ON "leads" USING btree ("integration_id","external_call_id");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_duration_seconds_check" CHECK ("leads"."duration_seconds" >= 0);--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_revenue_check" CHECK ("leads"."revenue" >= 0);