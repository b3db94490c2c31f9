-- A claim reads what can go, not every delivery that waits (issue 30's delivery engine under a
-- backlog; issue 26's 1,500 calls/s beside it).
--
-- outbound_due (0036) walked the due deliveries in next_at order and filtered out, on every
-- claim, those that cannot go: a lead's later postback while an earlier one is pending, and the
-- deliveries of a disabled or paused endpoint (publisher). Those stay due, so once a backlog
-- built up every claim read all of them again: at 1M leads after the bench's ingest rows, 53,844
-- waiting rows read by each claim, 294 ms a claim, about 30% of the database's CPU during
-- ingestion (perf: ExecSubPlan under outbound_due).
--
-- Now a claim reads a window of due rows (8 × what it still needs, a few windows at most) and
-- parks the ones that cannot go: a postback behind an earlier one of its lead until that one's
-- next try (15 s at the soonest), a disabled or paused endpoint's for 15 s; each is read again
-- then, not by every claim. What can go is claimed as before, in next_at order. When
-- a delivery finishes, the engine moves the next one of its lead back to now
-- (server/modules/outbound/engine.ts, record), and resuming an endpoint or a publisher's
-- postbacks moves its parked deliveries back to now, so parking delays nothing that could go
-- (at most 15 s when a claim and a finish cross).
CREATE OR REPLACE FUNCTION outbound_due(due_at timestamptz, most integer) RETURNS SETOF uuid
LANGUAGE plpgsql VOLATILE
SET enable_bitmapscan = off SET enable_sort = off
AS $$
DECLARE
  v_taken uuid[] := '{}';
  v_ready uuid[];
  v_seen integer;
  v_window integer;
BEGIN
  FOR pass IN 1..4 LOOP
    v_window := greatest(most - cardinality(v_taken), 1) * 8;
    WITH seen AS MATERIALIZED (
      SELECT c.id, c.next_at,
        CASE
          WHEN c.kind = 'webhook' AND NOT EXISTS (
                 SELECT 1 FROM webhook_endpoints e
                 WHERE e.id = c.endpoint_id AND e.enabled AND e.paused_at IS NULL)
            THEN due_at + interval '15 seconds'
          WHEN c.kind = 'postback' AND EXISTS (
                 SELECT 1 FROM postback_targets t
                 WHERE t.publisher_id = c.publisher_id AND t.paused_at IS NOT NULL)
            THEN due_at + interval '15 seconds'
          -- Behind an earlier delivery of its lead: until that one's next try at the soonest.
          WHEN c.ordering_key IS NOT NULL THEN (
                 SELECT CASE WHEN count(*) > 0
                             THEN greatest(max(p.next_at), due_at + interval '15 seconds') END
                 FROM outbound_deliveries p
                 WHERE p.state = 'pending' AND p.ordering_key = c.ordering_key
                   AND p.event_seq < c.event_seq)
        END AS park_until
      FROM outbound_deliveries c
      WHERE c.state = 'pending' AND c.next_at <= due_at
        AND (c.locked_until IS NULL OR c.locked_until <= due_at)
        AND c.id <> ALL (v_taken)
      ORDER BY c.next_at
      LIMIT v_window
      FOR UPDATE OF c SKIP LOCKED),
    parked AS (
      UPDATE outbound_deliveries d SET next_at = seen.park_until
      FROM seen WHERE d.id = seen.id AND seen.park_until IS NOT NULL)
    SELECT count(*)::int,
           coalesce((array_agg(id ORDER BY next_at) FILTER (WHERE park_until IS NULL))[1:most - cardinality(v_taken)], '{}')
      INTO v_seen, v_ready
      FROM seen;
    RETURN QUERY SELECT unnest(v_ready);
    v_taken := v_taken || v_ready;
    EXIT WHEN cardinality(v_taken) >= most OR v_seen < v_window;
  END LOOP;
END $$;
