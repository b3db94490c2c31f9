-- A batch of calls inserts its new leads in one statement, not one statement per call (issue
-- 26's ingestion row). The database's CPU is the row's limit, and a new call's INSERT INTO leads
-- was half of ingest_call's time: each statement opens the table's 15 indexes, sets up its
-- triggers and folds its transition rows, whatever its size. The same rows inserted 17 to a
-- statement cost 0.13 ms a row against 0.20 ms one by one (bench/ingest-plans-2026-11-29.md).
--
-- Inside ingest_calls (portal.insert_deferred = on), ingest_call judges a call it does not know
-- as before (the call's lock, its owner, the offer's rules, the caps' slots) and keeps the row
-- it would insert in pg_temp.lead_new_rows; ingest_new_leads_flush() inserts the kept rows in
-- their order in one statement, before the batch is billed and folded, and the batch answers
-- each call with its lead's id and status as the row's triggers left them. The calls of a batch
-- still see each other as they did one by one:
--   - a call already kept in the batch (a second event of it) is flushed first, so the later
--     event finds its lead and moves it forward;
--   - a kept approved call of the same caller and offer is flushed before the duplicate check,
--     so the second call is judged a duplicate of it (and the check reads the leads table
--     only, with the triggers' final statuses);
--   - a kept call written meanwhile by a writer that does not take the call's lock makes the
--     flush fail, and with it the batch; the portal then writes each call on its own
--     (server/modules/ingest/lead-ingest.ts), so nothing is paid twice.
-- Outside ingest_calls (one call, a replay, the test console) nothing changes.
CREATE FUNCTION ingest_new_leads_flush() RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  v_kept integer;
  v_written integer;
BEGIN
  SELECT count(*) INTO v_kept FROM pg_temp.lead_new_rows;
  IF v_kept = 0 THEN
    RETURN;
  END IF;
  WITH written AS (
    INSERT INTO leads AS l (
      publisher_id, offer_id, payout, status, status_reason, rule_outcome, judged_at,
      call_duration, duration_seconds, "timestamp", integration_id, external_call_id, caller,
      tracking_number, revenue, recording_url, state, zip, tags, event_rank, last_event,
      last_event_at
    )
    SELECT publisher_id, offer_id, payout, status, status_reason, rule_outcome, judged_at,
           call_duration, duration_seconds, "timestamp", integration_id, external_call_id, caller,
           tracking_number, revenue, recording_url, state, zip, tags, event_rank, last_event,
           last_event_at
      FROM pg_temp.lead_new_rows ORDER BY n
    ON CONFLICT (integration_id, external_call_id) DO NOTHING
    RETURNING l.integration_id, l.external_call_id, l.id, l.status
  )
  INSERT INTO pg_temp.lead_new_done (integration_id, external_call_id, id, status)
  SELECT integration_id, external_call_id, id, status FROM written;
  GET DIAGNOSTICS v_written = ROW_COUNT;
  IF v_written <> v_kept THEN
    RAISE EXCEPTION 'ingest: % of % new calls of the batch were written meanwhile by another writer',
      v_kept - v_written, v_kept;
  END IF;
  DELETE FROM pg_temp.lead_new_rows;
END $fn$;
--> statement-breakpoint
-- A function rewritten from its own definition (pg_get_functiondef): each edit is a pair
-- {old, new} of text, and each old text must be found exactly once, or nothing is changed and
-- the migration fails. (0055 did this inline; later migrations call this.)
CREATE FUNCTION function_edit(p_fn regprocedure, p_edits text[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  src text := pg_get_functiondef(p_fn);
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_edits, 1), 0) LOOP
    IF array_length(string_to_array(src, p_edits[i][1]), 1) <> 2 THEN
      RAISE EXCEPTION 'function_edit: % does not hold exactly one "%"', p_fn, p_edits[i][1];
    END IF;
    src := replace(src, p_edits[i][1], p_edits[i][2]);
  END LOOP;
  EXECUTE src;
END $fn$;
--> statement-breakpoint
-- ingest_call as 0026 wrote it, with two edits: the flush before the duplicate check, and the
-- kept row instead of the insert.
SELECT function_edit('ingest_call(uuid, uuid, text, text, smallint, smallint, text, uuid, text, uuid, text, text, integer, integer, numeric, numeric, text, text, text, timestamptz, jsonb, text, text)'::regprocedure, ARRAY[
  [$o$      PERFORM pg_advisory_xact_lock(hashtextextended(v_offer::text || '/' || caller_key(v_caller), 14));
$o$, $n$      PERFORM pg_advisory_xact_lock(hashtextextended(v_offer::text || '/' || caller_key(v_caller), 14));
      -- A call of this caller kept in the batch is written first, so the check sees it (0062).
      -- (Nested: the table of kept rows exists only in a session that ran ingest_calls.)
      IF current_setting('portal.insert_deferred', true) = 'on' THEN
        IF EXISTS (SELECT 1 FROM pg_temp.lead_new_rows n
                    WHERE n.offer_id = v_offer AND n.status = 'approved'
                      AND caller_key(n.caller) = caller_key(v_caller)) THEN
          PERFORM ingest_new_leads_flush();
        END IF;
      END IF;
$n$],
  [$o$  INSERT INTO leads AS l (
$o$, $n$  IF NOT v_found AND p_call_id IS NOT NULL
     AND current_setting('portal.insert_deferred', true) = 'on' THEN
    -- Inside ingest_calls: kept, and inserted with the batch's other new calls (0062).
    INSERT INTO pg_temp.lead_new_rows (
      publisher_id, offer_id, payout, status, status_reason, rule_outcome, judged_at,
      call_duration, duration_seconds, "timestamp", integration_id, external_call_id, caller,
      tracking_number, revenue, recording_url, state, zip, tags, event_rank, last_event,
      last_event_at
    ) VALUES (
      v_pub, v_offer, coalesce(v_payout, o.payout), coalesce(v_status, p_status), v_reason, v_outcome, v_judged,
      p_minutes, p_seconds, coalesce(p_ts, now()), p_integration, p_call_id, p_caller,
      p_tracking, p_revenue, p_recording, p_state, p_zip, p_tags, p_rank, p_event, now()
    );
    RETURN QUERY SELECT NULL::uuid, 'kept'::text, NULL::text;
    RETURN;
  END IF;

  INSERT INTO leads AS l (
$n$]
]);
--> statement-breakpoint
-- ingest_calls as 0046 and 0055 left it, with four edits: the kept calls' variables, their
-- tables (kept across commits and trimmed, as 0055's are) and the flag, the flush before a
-- second event of a kept call, and at the end the flush (before the bill and the fold) and the
-- kept calls' answers.
SELECT function_edit('ingest_calls(jsonb)'::regprocedure, ARRAY[
  [$o$  r record;
$o$, $n$  r record;
  v_key text;
  -- The calls kept since the last flush (integration/call id), and every kept call's ord and key.
  v_kept text[] := '{}';
  v_kept_ords integer[] := '{}';
  v_kept_keys text[] := '{}';
$n$],
  [$o$  ord := -1;
$o$, $n$  -- The new leads, kept until the batch inserts them at once (0062).
  IF to_regclass('pg_temp.lead_new_rows') IS NULL THEN
    CREATE TEMP TABLE lead_new_rows AS
      SELECT 1::bigint AS n, publisher_id, offer_id, payout, status, status_reason, rule_outcome,
             judged_at, call_duration, duration_seconds, "timestamp", integration_id,
             external_call_id, caller, tracking_number, revenue, recording_url, state, zip, tags,
             event_rank, last_event, last_event_at
      FROM leads WITH NO DATA;
    CREATE TEMP SEQUENCE lead_new_rows_n;
    ALTER TABLE pg_temp.lead_new_rows ALTER COLUMN n SET DEFAULT nextval('pg_temp.lead_new_rows_n');
    CREATE TEMP TABLE lead_new_done (
      integration_id uuid NOT NULL, external_call_id text NOT NULL, id uuid NOT NULL,
      status text NOT NULL
    );
  END IF;
  PERFORM batch_rows_trim('pg_temp.lead_new_rows');
  PERFORM batch_rows_trim('pg_temp.lead_new_done');
  PERFORM set_config('portal.insert_deferred', 'on', true);
  ord := -1;
$n$],
  [$o$    BEGIN
      SELECT * INTO r FROM ingest_call(
$o$, $n$    v_key := (c->>'integration')::uuid::text || '/' || (c->>'call_id');
    IF v_key = ANY (v_kept) THEN
      -- A later event of a call kept in this batch: its lead is written first, then found.
      PERFORM ingest_new_leads_flush();
      v_kept := '{}';
    END IF;
    BEGIN
      SELECT * INTO r FROM ingest_call(
$n$],
  [$o$    END;
    RETURN NEXT;
  END LOOP;
$o$, $n$    END;
    IF out_failed IS NULL AND out_status = 'kept' THEN
      -- Answered after the flush, with the lead's id and status.
      v_kept := v_kept || v_key;
      v_kept_ords := v_kept_ords || ord;
      v_kept_keys := v_kept_keys || v_key;
      CONTINUE;
    END IF;
    RETURN NEXT;
  END LOOP;
  PERFORM ingest_new_leads_flush();
  PERFORM set_config('portal.insert_deferred', 'off', true);
  RETURN QUERY
    SELECT k.ord, d.id, d.status, NULL::text, NULL::text
      FROM unnest(v_kept_ords, v_kept_keys) AS k(ord, key)
      JOIN pg_temp.lead_new_done d ON d.integration_id::text || '/' || d.external_call_id = k.key;
  DELETE FROM pg_temp.lead_new_done;
$n$]
]);
