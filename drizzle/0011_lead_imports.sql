CREATE TABLE "lead_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"filename" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" text,
	"header" jsonb NOT NULL,
	"sample" jsonb NOT NULL,
	"row_count" integer NOT NULL,
	"mapping" jsonb,
	"integration_id" uuid,
	"status" text DEFAULT 'uploaded' NOT NULL,
	"would_create" integer,
	"would_update" integer,
	"unchanged" integer,
	"error_rows" integer,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" integer,
	"updated" integer,
	"message" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "lead_imports" ADD CONSTRAINT "lead_imports_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_imports" ADD CONSTRAINT "lead_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_imports_created_idx" ON "lead_imports" USING btree ("created_at" DESC NULLS LAST);