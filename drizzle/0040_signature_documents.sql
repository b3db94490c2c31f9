CREATE TABLE "document_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_email" text,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "document_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"full_name" text NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"consent_text" text NOT NULL,
	"shown_sha256" text NOT NULL,
	"signed_key" text NOT NULL,
	"sealed_sha256" text NOT NULL,
	"cert_sha256" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signature_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"publisher_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"application_id" uuid,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"file_key" text NOT NULL,
	"sha256" text NOT NULL,
	"status" text DEFAULT 'sent' NOT NULL,
	"sent_by" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"viewed_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"reminded_days" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"last_reminded_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "signature_documents_kind_check" CHECK ("signature_documents"."kind" in ('agreement','io')),
	CONSTRAINT "signature_documents_status_check" CHECK ("signature_documents"."status" in ('sent','viewed','signed','superseded'))
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "document_resign_months" integer;--> statement-breakpoint
ALTER TABLE "document_events" ADD CONSTRAINT "document_events_document_id_signature_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."signature_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_signatures" ADD CONSTRAINT "document_signatures_document_id_signature_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."signature_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_application_id_offer_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."offer_applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_documents" ADD CONSTRAINT "signature_documents_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_events_document_idx" ON "document_events" USING btree ("document_id","at");--> statement-breakpoint
CREATE INDEX "document_signatures_document_idx" ON "document_signatures" USING btree ("document_id","signed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "document_signatures_sealed_idx" ON "document_signatures" USING btree ("sealed_sha256");--> statement-breakpoint
CREATE INDEX "signature_documents_sent_id_idx" ON "signature_documents" USING btree ("sent_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "signature_documents_publisher_idx" ON "signature_documents" USING btree ("publisher_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "signature_documents_expires_idx" ON "signature_documents" USING btree ("expires_at") WHERE "signature_documents"."status" = 'signed';