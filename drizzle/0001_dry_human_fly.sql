ALTER TABLE "one_time_tokens" DROP CONSTRAINT "one_time_tokens_type_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_change" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_change_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reauthentication_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_type_check" CHECK ("one_time_tokens"."token_type" in ('confirmation','recovery','email_change','reauthentication'));