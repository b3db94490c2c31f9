-- Issue 32 (ingestion speed) / issue 30 (postback order): a lead's later postback waits with
-- no due time (next_at null) while an earlier one of its ordering key is pending, instead of
-- sitting due in the due index and being passed over by every claim (outbound_due's NOT
-- EXISTS filter): with three deliveries a call, a backlog of 53,844 waiting rows made one
-- claim read them all (294 ms). Fan-out writes a follower waiting; a claim takes it with the
-- due delivery before it (a chain, sent in order), or the record of that one gives it its due
-- time; a periodic sweep (outbound-waiting, on the index below) releases the few a fan-out
-- racing a record left waiting. outbound_due keeps its filter, so the order holds whatever the
-- release does.
-- The due index leaves the waiting rows out (next_at is not null: outbound_due's next_at <= at
-- implies it), so a claim's look for the followers of its heads reads the waiting index by key.
DROP INDEX "outbound_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "outbound_deliveries" ALTER COLUMN "next_at" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "outbound_deliveries_waiting_idx" ON "outbound_deliveries" USING btree ("ordering_key","event_seq") WHERE "outbound_deliveries"."state" = 'pending' and "outbound_deliveries"."next_at" is null;--> statement-breakpoint
CREATE INDEX "outbound_deliveries_due_idx" ON "outbound_deliveries" USING btree ("next_at") WHERE "outbound_deliveries"."state" = 'pending' and "outbound_deliveries"."next_at" is not null;--> statement-breakpoint
-- The claim's walk stops at its limit, but at 100k pending rows its cost passed jit_above_cost
-- and every claim JIT-compiled its plan: 11–14 ms a claim against 0.9 ms without (psql, 250
-- due of 100,000 heads). Its plan is pinned and short: never worth compiling.
ALTER FUNCTION outbound_due(timestamptz, integer) SET jit = off;
