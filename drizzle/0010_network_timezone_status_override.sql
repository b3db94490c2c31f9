ALTER TABLE "leads" ADD COLUMN "status_overridden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "timezone" text DEFAULT 'UTC' NOT NULL;