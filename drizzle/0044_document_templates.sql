ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "agreement_template" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "io_template" text;