-- Fewer index writes per delivery (issue 30: ingestion keeps its row with postbacks on). Every
-- delivery is written three times (fan-out, claim, record), and each write that is not HOT
-- adds an entry to every index whose predicate the row meets:
-- * the two log indexes become partial: a webhook's row has no publisher and a postback's no
--   endpoint, so each row enters one of them, not both;
-- * the created_at index goes: the 30-day retention sweep reads the primary key instead (the
--   id is a UUIDv7, time-ordered);
-- * half of each new page is left free (30% since drizzle/0036), so the claims of a whole
--   page (the lease columns, in no index) stay on it as HOT updates and write no index.
DROP INDEX "outbound_deliveries_created_idx";--> statement-breakpoint
DROP INDEX "outbound_deliveries_endpoint_idx";--> statement-breakpoint
DROP INDEX "outbound_deliveries_publisher_idx";--> statement-breakpoint
CREATE INDEX "outbound_deliveries_endpoint_idx" ON "outbound_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "outbound_deliveries"."endpoint_id" is not null;--> statement-breakpoint
CREATE INDEX "outbound_deliveries_publisher_idx" ON "outbound_deliveries" USING btree ("publisher_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "outbound_deliveries"."publisher_id" is not null;--> statement-breakpoint
ALTER TABLE "outbound_deliveries" SET (fillfactor = 50);
