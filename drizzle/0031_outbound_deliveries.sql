CREATE TABLE "outbound_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"status" integer,
	"error" text,
	"response_body" text,
	"request_headers" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"kind" text NOT NULL,
	"endpoint_id" uuid,
	"publisher_id" uuid,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"event_seq" bigint NOT NULL,
	"dedupe_key" text NOT NULL,
	"ordering_key" text,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"body" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"locked_by" text,
	"last_status" integer,
	"last_error" text,
	"last_duration_ms" integer,
	"retry_from" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT uuid_v7() NOT NULL,
	"type" text NOT NULL,
	"lead_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postback_targets" (
	"publisher_id" uuid PRIMARY KEY NOT NULL,
	"failing_since" timestamp with time zone,
	"paused_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "postback_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" uuid NOT NULL,
	"offer_id" uuid,
	"event" text NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "postback_templates_one_key" UNIQUE NULLS NOT DISTINCT("publisher_id","offer_id","event")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"description" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "postback_tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_attempts" ADD CONSTRAINT "outbound_attempts_delivery_id_outbound_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."outbound_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_deliveries" ADD CONSTRAINT "outbound_deliveries_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postback_targets" ADD CONSTRAINT "postback_targets_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postback_templates" ADD CONSTRAINT "postback_templates_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postback_templates" ADD CONSTRAINT "postback_templates_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbound_attempts_delivery_idx" ON "outbound_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "outbound_deliveries_dedupe_key" ON "outbound_deliveries" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "outbound_deliveries_due_idx" ON "outbound_deliveries" USING btree ("next_at") WHERE "outbound_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "outbound_deliveries_order_idx" ON "outbound_deliveries" USING btree ("ordering_key","event_seq") WHERE "outbound_deliveries"."state" = 'pending' and "outbound_deliveries"."ordering_key" is not null;--> statement-breakpoint
CREATE INDEX "outbound_deliveries_endpoint_idx" ON "outbound_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "outbound_deliveries_publisher_idx" ON "outbound_deliveries" USING btree ("publisher_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "outbound_deliveries_created_idx" ON "outbound_deliveries" USING btree ("created_at");--> statement-breakpoint
-- The lead's events into the outbox (issue 30), in the transaction that writes the lead,
-- whatever writes it (the ingest, an import, an admin, a dispute): one INSERT … SELECT per
-- created lead and per change of status or payout, and nothing while no one listens (no
-- postback template of the lead's publisher and no enabled endpoint of a lead event type).
CREATE FUNCTION leads_outbound_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO outbound_events (type, lead_id, data)
  SELECT CASE WHEN TG_OP = 'INSERT' THEN 'lead.created'
              WHEN NEW.status IS DISTINCT FROM OLD.status THEN 'lead.status_changed'
              ELSE 'lead.payout_changed' END,
         NEW.id,
         jsonb_build_object('status', NEW.status, 'previous_status', OLD.status,
                            'payout', NEW.payout, 'previous_payout', OLD.payout,
                            'status_reason', NEW.status_reason)
  WHERE EXISTS (SELECT 1 FROM postback_templates WHERE publisher_id = NEW.publisher_id)
     OR EXISTS (SELECT 1 FROM webhook_endpoints
                WHERE enabled AND events && '{lead.created,lead.status_changed}'::text[]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER leads_outbound_insert AFTER INSERT ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_outbound_event();
--> statement-breakpoint
CREATE TRIGGER leads_outbound_update AFTER UPDATE OF status, payout ON leads
  FOR EACH ROW WHEN (
    (OLD.status, OLD.payout) IS DISTINCT FROM (NEW.status, NEW.payout)
  ) EXECUTE FUNCTION leads_outbound_event();
