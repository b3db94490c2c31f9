-- Issue 30/32: the release of a lead's next postback moves from the engine's record statement
-- to a trigger, closing a race. A fan-out read a predecessor as pending and wrote its follower
-- waiting while the record of that predecessor, whose statement snapshot predated the
-- follower, looked for followers: neither saw the other, and the follower waited for the
-- 15 s sweep (a lead changing status while its postback was being delivered: common in live
-- traffic). Now the fan-out's look at the predecessor locks it FOR SHARE SKIP LOCKED
-- (fanout.ts):
-- - a record holds it: skipped, the follower is written due (the claim's filter holds it while
--   the predecessor is pending), and the fan-out never waits for a record (no deadlock);
-- - the fan-out locked it first: the record waits for the fan-out's commit, and this trigger,
--   run after the update with a fresh snapshot (a volatile function's statement in READ
--   COMMITTED), sees the follower and makes it due.
-- A follower still held by a chain in flight is left alone: its own record frees the next.
CREATE FUNCTION outbound_release_followers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Its own update below (and a claim's, all pending) has nothing to release.
  IF pg_trigger_depth() > 1 OR NOT EXISTS (SELECT 1 FROM done_rows n
      WHERE n.ordering_key IS NOT NULL AND n.state <> 'pending') THEN
    RETURN NULL;
  END IF;
  UPDATE outbound_deliveries w SET next_at = now()
  WHERE w.id IN (
      SELECT (SELECT w2.id FROM outbound_deliveries w2
              WHERE w2.state = 'pending' AND w2.next_at IS NULL
                AND w2.ordering_key = k.ordering_key
              ORDER BY w2.event_seq LIMIT 1)
      FROM (SELECT DISTINCT n.ordering_key FROM done_rows n
            WHERE n.ordering_key IS NOT NULL AND n.state <> 'pending') k)
    AND (w.locked_until IS NULL OR w.locked_until <= now())
    AND NOT EXISTS (SELECT 1 FROM outbound_deliveries p
      WHERE p.state = 'pending' AND p.ordering_key = w.ordering_key
        AND p.event_seq < w.event_seq);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- (Every update statement: a column list cannot go with a transition table; a claim's rows,
-- all pending, yield no key.)
CREATE TRIGGER outbound_release_followers AFTER UPDATE ON outbound_deliveries
  REFERENCING NEW TABLE AS done_rows
  FOR EACH STATEMENT EXECUTE FUNCTION outbound_release_followers();
