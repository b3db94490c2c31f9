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
-- Now a claim reads the due rows in next_at order until it has what it asked for (reading at
-- most 8 × that + 256 rows) and parks the ones that cannot go: a postback behind an earlier
-- pending one of its lead until that one's next try (15 s at the soonest), a disabled or paused
-- endpoint's (publisher's) for 15 s. Each is read again then, not by every claim. What can go
-- is claimed as before, in next_at order. When a delivery finishes, the engine moves the next
-- one of its lead back to now (server/modules/outbound/engine.ts, record), so a lead's
-- postbacks still go one right after the other (15 s later at most when a claim and a finish
-- cross); a resumed endpoint's deliveries go within 15 s.
CREATE OR REPLACE FUNCTION outbound_due(due_at timestamptz, most integer) RETURNS SETOF uuid
LANGUAGE plpgsql VOLATILE
SET enable_bitmapscan = off SET enable_sort = off
AS $$
DECLARE
  r record;
  v_taken integer := 0;
  v_read integer := 0;
  v_park uuid[] := '{}';
  v_until timestamptz[] := '{}';
BEGIN
  FOR r IN
    SELECT c.id,
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
    ORDER BY c.next_at
    FOR UPDATE OF c SKIP LOCKED
  LOOP
    v_read := v_read + 1;
    IF r.park_until IS NULL THEN
      RETURN NEXT r.id;
      v_taken := v_taken + 1;
    ELSE
      v_park := v_park || r.id;
      v_until := v_until || r.park_until;
    END IF;
    EXIT WHEN v_taken >= most OR v_read >= most * 8 + 256;
  END LOOP;
  IF cardinality(v_park) > 0 THEN
    UPDATE outbound_deliveries d SET next_at = p.until
      FROM unnest(v_park, v_until) AS p(id, until) WHERE d.id = p.id;
  END IF;
END $$;
