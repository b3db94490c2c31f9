-- Issue 13, ingestion speed: postbacks arriving together are written together. The server
-- queues the calls that arrive while its earlier batches are being written and sends them as
-- one JSON array (server/db/call-batcher.ts): one round trip and one commit for up to 32 calls
-- instead of one each. Each call runs ingest_call() in its own subtransaction, so a call that
-- fails (a deadlock between two batches, say) is undone alone and reported, and the server
-- writes it again on its own. `unchanged_since` is the key cache's guard of upsertCall: an
-- integration changed or revoked since it was read writes nothing ('stale').
CREATE FUNCTION ingest_calls(batch jsonb)
RETURNS TABLE (ord integer, out_id uuid, out_status text, out_missing text, out_failed text)
LANGUAGE plpgsql AS $fn$
DECLARE
  c jsonb;
  r record;
BEGIN
  ord := -1;
  FOR c IN SELECT value FROM jsonb_array_elements(batch) LOOP
    ord := ord + 1;
    out_id := NULL; out_status := NULL; out_missing := NULL; out_failed := NULL;
    IF c->>'unchanged_since' IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM integrations i WHERE i.id = (c->>'integration')::uuid
        AND i.updated_at = (c->>'unchanged_since')::timestamptz AND i.revoked_at IS NULL) THEN
      out_failed := 'stale';
      RETURN NEXT;
      CONTINUE;
    END IF;
    BEGIN
      SELECT * INTO r FROM ingest_call(
        (c->>'integration')::uuid, c->>'call_id', c->>'event', (c->>'rank')::smallint,
        (c->>'billable')::smallint, c->>'publisher', (c->>'publisher_id')::uuid, c->>'offer',
        (c->>'offer_id')::uuid, c->>'caller', c->>'tracking', (c->>'seconds')::integer,
        (c->>'minutes')::integer, (c->>'revenue')::numeric, (c->>'payout')::numeric,
        c->>'recording', c->>'state', c->>'zip', (c->>'ts')::timestamptz, c->'tags',
        c->>'status', c->>'reason');
      out_id := r.out_id; out_status := r.out_status; out_missing := r.out_missing;
    EXCEPTION WHEN OTHERS THEN
      out_failed := SQLSTATE || ': ' || SQLERRM;
    END;
    RETURN NEXT;
  END LOOP;
END
$fn$;
