-- Issue 32 (ingestion speed) / issue 30 (postback order): a lead's later postback waits with
-- no due time (next_at null) while an earlier one of its ordering key is pending, instead of
-- sitting due in the due index and being passed over by every claim (outbound_due's NOT
-- EXISTS filter): with three deliveries a call, a backlog of 53,844 waiting rows made one
-- claim read them all (294 ms). Fan-out writes a follower waiting; the record of the delivery
-- before it gives it its due time; a periodic sweep (outbound-waiting, on the index below)
-- releases the few a fan-out racing a record left waiting. outbound_due keeps its filter, so
-- the order holds whatever the release does.
ALTER TABLE "outbound_deliveries" ALTER COLUMN "next_at" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "outbound_deliveries_waiting_idx" ON "outbound_deliveries" USING btree ("ordering_key","event_seq") WHERE "outbound_deliveries"."state" = 'pending' and "outbound_deliveries"."next_at" is null;