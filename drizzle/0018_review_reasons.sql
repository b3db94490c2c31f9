ALTER TABLE "compliance_questionnaires" DROP CONSTRAINT "compliance_questionnaires_application_id_unique";--> statement-breakpoint
ALTER TABLE "compliance_questionnaires" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "compliance_questionnaires" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "compliance_questionnaires" ADD COLUMN "review_note" text;--> statement-breakpoint
ALTER TABLE "compliance_questionnaires" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offer_applications" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "offer_applications" ADD COLUMN "review_note" text;--> statement-breakpoint
CREATE INDEX "compliance_application_created_idx" ON "compliance_questionnaires" USING btree ("application_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Submissions decided before this migration: their application's decision (one submission each then).
UPDATE "compliance_questionnaires" q SET "decision" = a."status", "decided_at" = a."updated_at" FROM "offer_applications" a WHERE a."id" = q."application_id" AND a."status" IN ('approved', 'rejected');
