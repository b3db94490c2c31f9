-- The admin's publisher and buyer search (name or e-mail contains the text, ILIKE '%…%'):
-- trigram indexes answer it without reading every user (8.5 ms per scan at 11k users).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_name_trgm_idx" ON "users" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);
