CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"route" text NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
-- Duplicate drafts left by concurrent Apply Now requests: keep the most recent one of each pair.
DELETE FROM "offer_applications" a USING "offer_applications" b
WHERE a."status" = 'draft' AND b."status" = 'draft'
  AND a."publisher_id" = b."publisher_id" AND a."offer_id" = b."offer_id"
  AND (a."updated_at", a."id") < (b."updated_at", b."id");--> statement-breakpoint
CREATE UNIQUE INDEX "offer_applications_one_draft_key" ON "offer_applications" USING btree ("publisher_id","offer_id") WHERE "offer_applications"."status" = 'draft';