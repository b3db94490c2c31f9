-- Hand-written (issue 30, speed): a statement that writes outbound events tells the delivery
-- engines at its commit (NOTIFY outbound_events), so they wake then instead of at their next
-- poll. One notification per statement that wrote rows (the transition table is looked at, so
-- the leads trigger's INSERT … SELECT that wrote nothing, no one listening, notifies nothing);
-- PostgreSQL folds a transaction's equal notifications into one.
CREATE FUNCTION outbound_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_events) THEN
    PERFORM pg_notify('outbound_events', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER outbound_events_notify AFTER INSERT ON outbound_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION outbound_events_notify();
--> statement-breakpoint
-- The engine's claim (server/modules/outbound/engine.ts, claimDue): the due deliveries in
-- next_at order, walked on the due index and stopped at the limit. Left to itself, the planner
-- read every due delivery and sorted them for each claim whenever the statistics were stale
-- (PGlite has no autovacuum; a burst arrives faster than autoanalyze): a 10,000-event burst
-- cost ~20 ms a claim instead of ~1. A function can pin the plan (its SET clauses).
-- A delivery waits while an earlier one of its ordering key (a lead's postbacks) is pending;
-- a disabled or paused endpoint's, and a paused publisher's, wait for it to come back.
CREATE FUNCTION outbound_due(due_at timestamptz, most integer) RETURNS SETOF uuid
LANGUAGE sql VOLATILE
SET enable_bitmapscan = off SET enable_sort = off
AS $$
  SELECT c.id FROM outbound_deliveries c
  WHERE c.state = 'pending' AND c.next_at <= due_at
    AND (c.locked_until IS NULL OR c.locked_until <= due_at)
    AND (c.kind <> 'webhook' OR EXISTS (
      SELECT 1 FROM webhook_endpoints e
      WHERE e.id = c.endpoint_id AND e.enabled AND e.paused_at IS NULL))
    AND (c.kind <> 'postback' OR NOT EXISTS (
      SELECT 1 FROM postback_targets t
      WHERE t.publisher_id = c.publisher_id AND t.paused_at IS NOT NULL))
    AND (c.ordering_key IS NULL OR NOT EXISTS (
      SELECT 1 FROM outbound_deliveries p
      WHERE p.state = 'pending' AND p.ordering_key = c.ordering_key
        AND p.event_seq < c.event_seq))
  ORDER BY c.next_at
  LIMIT most
  FOR UPDATE OF c SKIP LOCKED
$$;
--> statement-breakpoint
-- Room on each page, so a claim (locked_until, locked_by: no index reads them) is a HOT update.
ALTER TABLE outbound_deliveries SET (fillfactor = 70);
