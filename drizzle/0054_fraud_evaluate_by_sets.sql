-- The fraud rules on a batch of written calls by sets, not call by call (issue 32: the rules
-- must not slow ingestion). fraud_evaluate (0038) ran a dozen statements per call, each
-- updating the same publisher-hour counter row again and inserting its flags one by one. Now
-- a batch is a handful of statements whatever its size:
--   1. its leads, each once (its first item), into a temporary table;
--   2. first sight or first judgement (fraud_lead_checks), one upsert; a lead seen before
--      with nothing new leaves the batch;
--   3. the counters, one upsert per publisher-hour and per caller-hour of the batch;
--   4. the rules' figures: each call sees the counters as they were after the calls before
--      it, i.e. the counters after the batch less what the batch's later calls of its own
--      hour added (calls of a batch count in the order of their hour, then of arrival: a
--      late event of an older call counts before this hour's calls); the new flags in one
--      insert, once per lead and rule;
--   5. the admins' alert once per publisher and hour, the holds, and the answer.
-- Each CTE that reads the counters is MATERIALIZED: inlined, the planner (a temporary table
-- has no statistics) looped the callers' sums once per call of the batch.
-- Same flags, reasons and figures as before (server/modules/fraud/fraud.test.ts, and a test
-- of one batch against the same calls one by one).
CREATE OR REPLACE FUNCTION fraud_evaluate(p_items jsonb, p_rules jsonb)
RETURNS TABLE (out_lead uuid, out_publisher uuid, out_flags jsonb, out_alert boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_vel jsonb := p_rules->'publisher_velocity';
  v_rep jsonb := p_rules->'repeat_caller';
  v_ano jsonb := p_rules->'caller_anomaly';
  v_sho jsonb := p_rules->'short_calls';
  v_rej jsonb := p_rules->'publisher_rejects';
BEGIN
  -- One evaluation at a time across instances: the counters are updated in one order.
  PERFORM pg_advisory_xact_lock(hashtextextended('fraud_evaluate', 32));
  IF to_regclass('pg_temp.fraud_eval_rows') IS NULL THEN
    CREATE TEMP TABLE fraud_eval_rows (
      n bigint NOT NULL,
      lead_id uuid NOT NULL,
      publisher_id uuid NOT NULL,
      hour timestamptz NOT NULL,
      caller text,
      anomaly text,
      anomaly_figures jsonb,
      status text NOT NULL,
      status_reason text,
      overridden boolean NOT NULL,
      duration integer,
      buffer integer,
      judged boolean NOT NULL,
      near boolean,
      fresh boolean,
      flags jsonb,
      velocity boolean NOT NULL DEFAULT false,
      alert boolean NOT NULL DEFAULT false
    ) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM fraud_eval_rows;

  -- 1. The batch's leads, each once, with their offer's buffer.
  INSERT INTO fraud_eval_rows (n, lead_id, publisher_id, hour, caller, anomaly, anomaly_figures,
                               status, status_reason, overridden, duration, buffer, judged, near)
  SELECT it.n, le.id, le.publisher_id, date_trunc('hour', le."timestamp"), it.caller, it.anomaly,
         it.anomaly_figures, le.status, le.status_reason, le.status_overridden_at IS NOT NULL,
         le.duration_seconds, o.buffer_seconds, le.judged_at IS NOT NULL,
         o.buffer_seconds IS NOT NULL AND le.duration_seconds IS NOT NULL
           AND le.duration_seconds >= o.buffer_seconds
           AND le.duration_seconds <= o.buffer_seconds
                                      + (v_sho->'params'->>'seconds_above_buffer')::int
    FROM (SELECT DISTINCT ON ((e.value->>'id')::uuid)
                 (e.value->>'id')::uuid AS id, e.n, e.value->>'caller' AS caller,
                 e.value->>'anomaly' AS anomaly, e.value->'anomaly_figures' AS anomaly_figures
            FROM jsonb_array_elements(p_items) WITH ORDINALITY AS e(value, n)
           ORDER BY (e.value->>'id')::uuid, e.n) it
    JOIN leads le ON le.id = it.id
    JOIN offers o ON o.id = le.offer_id;

  -- 2. Counted once at first sight and once when judged.
  WITH checked AS (
    INSERT INTO fraud_lead_checks AS c (lead_id, judged)
    SELECT b.lead_id, b.judged FROM fraud_eval_rows b ORDER BY b.lead_id
    ON CONFLICT (lead_id) DO UPDATE SET judged = true WHERE NOT c.judged AND excluded.judged
    RETURNING c.lead_id, (c.xmax::text = '0') AS fresh)
  UPDATE fraud_eval_rows b SET fresh = checked.fresh FROM checked WHERE checked.lead_id = b.lead_id;
  DELETE FROM fraud_eval_rows WHERE fresh IS NULL;

  -- 3. The counters: calls at first sight; judged, near the buffer and rejected when judged.
  INSERT INTO fraud_publisher_hours AS h (publisher_id, hour, calls, judged, near_buffer, rejected)
  SELECT b.publisher_id, b.hour, count(*) FILTER (WHERE b.fresh),
         count(*) FILTER (WHERE b.judged), count(*) FILTER (WHERE b.judged AND b.near),
         count(*) FILTER (WHERE b.judged AND b.status = 'rejected')
    FROM fraud_eval_rows b GROUP BY b.publisher_id, b.hour ORDER BY 1, 2
  ON CONFLICT (publisher_id, hour) DO UPDATE SET calls = h.calls + excluded.calls,
    judged = h.judged + excluded.judged, near_buffer = h.near_buffer + excluded.near_buffer,
    rejected = h.rejected + excluded.rejected;
  INSERT INTO fraud_caller_hours AS ch (caller, hour, calls)
  SELECT b.caller, b.hour, count(*) FROM fraud_eval_rows b
   WHERE b.fresh AND b.caller IS NOT NULL GROUP BY b.caller, b.hour ORDER BY 1, 2
  ON CONFLICT (caller, hour) DO UPDATE SET calls = ch.calls + excluded.calls;

  -- 4. The rules' figures per call, and the new flags.
  WITH later AS MATERIALIZED (
    -- What the batch's calls after this one, of its own hour, added to the counters.
    SELECT b.*,
           count(*) FILTER (WHERE b.fresh) OVER pub_after AS calls_after,
           count(*) FILTER (WHERE b.judged) OVER pub_after AS judged_after,
           count(*) FILTER (WHERE b.judged AND b.near) OVER pub_after AS near_after,
           count(*) FILTER (WHERE b.judged AND b.status = 'rejected') OVER pub_after AS rejected_after,
           count(*) FILTER (WHERE b.fresh) OVER caller_after AS caller_after
      FROM fraud_eval_rows b
    WINDOW pub_after AS (PARTITION BY b.publisher_id, b.hour ORDER BY b.n
                         ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING),
           caller_after AS (PARTITION BY b.caller, b.hour ORDER BY b.n
                            ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)),
  pub AS MATERIALIZED (
    -- Per publisher and hour of the batch, the counters each rule reads (after the batch).
    SELECT k.publisher_id, k.hour,
           (SELECT h.calls FROM fraud_publisher_hours h
             WHERE h.publisher_id = k.publisher_id AND h.hour = k.hour) AS calls,
           CASE WHEN (v_vel->>'enabled')::boolean THEN
             (SELECT coalesce(sum(h.calls), 0)::numeric / (v_vel->'params'->>'weeks')::int
                FROM fraud_publisher_hours h
               WHERE h.publisher_id = k.publisher_id
                 AND h.hour IN (SELECT k.hour - make_interval(weeks => w)
                                  FROM generate_series(1, (v_vel->'params'->>'weeks')::int) w))
           END AS usual,
           s.judged AS s_judged, s.near AS s_near, r.judged AS r_judged, r.rejected AS r_rejected
      FROM (SELECT DISTINCT b.publisher_id, b.hour FROM fraud_eval_rows b) k
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(h.judged), 0) AS judged, coalesce(sum(h.near_buffer), 0) AS near
          FROM fraud_publisher_hours h
         WHERE (v_sho->>'enabled')::boolean AND h.publisher_id = k.publisher_id
           AND h.hour <= k.hour
           AND h.hour > k.hour - make_interval(hours => (v_sho->'params'->>'hours')::int)) s
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(h.judged), 0) AS judged, coalesce(sum(h.rejected), 0) AS rejected
          FROM fraud_publisher_hours h
         WHERE (v_rej->>'enabled')::boolean AND h.publisher_id = k.publisher_id
           AND h.hour <= k.hour
           AND h.hour > k.hour - make_interval(hours => (v_rej->'params'->>'hours')::int)) r),
  callers AS MATERIALIZED (
    SELECT k.caller, k.hour,
           (SELECT coalesce(sum(ch.calls), 0) FROM fraud_caller_hours ch
             WHERE ch.caller = k.caller AND ch.hour <= k.hour
               AND ch.hour > k.hour - make_interval(hours => (v_rep->'params'->>'hours')::int)) AS calls
      FROM (SELECT DISTINCT b.caller, b.hour FROM fraud_eval_rows b
             WHERE b.fresh AND b.caller IS NOT NULL) k
     WHERE (v_rep->>'enabled')::boolean),
  x AS (
    SELECT l.*, p.calls - l.calls_after AS v_calls, p.usual,
           p.s_judged - l.judged_after AS s_judged, p.s_near - l.near_after AS s_near,
           p.r_judged - l.judged_after AS r_judged, p.r_rejected - l.rejected_after AS r_rejected,
           c.calls - l.caller_after AS c_calls
      FROM later l
      JOIN pub p ON p.publisher_id = l.publisher_id AND p.hour = l.hour
      LEFT JOIN callers c ON c.caller = l.caller AND c.hour = l.hour),
  cand AS (
    SELECT x.n, 1 AS r, x.lead_id, x.publisher_id, 'publisher_velocity' AS rule,
           format('%s calls from this publisher in the hour from %s UTC, usually %s at this weekday and hour (last %s weeks): over %s× the usual and at least %s',
                  x.v_calls, to_char(x.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:00'), round(x.usual, 1),
                  v_vel->'params'->>'weeks', v_vel->'params'->>'multiplier', v_vel->'params'->>'min_calls') AS reason,
           jsonb_build_object('calls_this_hour', x.v_calls, 'usual', round(x.usual, 1),
                              'multiplier', (v_vel->'params'->>'multiplier')::numeric,
                              'min_calls', (v_vel->'params'->>'min_calls')::int,
                              'hour', to_char(x.hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00"Z"')) AS figures
      FROM x
     WHERE (v_vel->>'enabled')::boolean AND x.fresh
       AND x.v_calls >= (v_vel->'params'->>'min_calls')::int
       AND x.v_calls > (v_vel->'params'->>'multiplier')::numeric * x.usual
    UNION ALL
    SELECT x.n, 2, x.lead_id, x.publisher_id, 'repeat_caller',
           format('%s calls from %s in %s h across offers: more than %s',
                  x.c_calls, x.caller, v_rep->'params'->>'hours', v_rep->'params'->>'max_calls'),
           jsonb_build_object('calls', x.c_calls, 'caller', x.caller,
                              'hours', (v_rep->'params'->>'hours')::int,
                              'max_calls', (v_rep->'params'->>'max_calls')::int)
      FROM x
     WHERE (v_rep->>'enabled')::boolean AND x.fresh AND x.caller IS NOT NULL
       AND x.c_calls > (v_rep->'params'->>'max_calls')::int
    UNION ALL
    SELECT x.n, 3, x.lead_id, x.publisher_id, 'caller_anomaly', x.anomaly,
           coalesce(x.anomaly_figures, '{}'::jsonb)
      FROM x
     WHERE (v_ano->>'enabled')::boolean AND x.fresh AND x.anomaly IS NOT NULL
    UNION ALL
    SELECT x.n, 4, x.lead_id, x.publisher_id, 'short_calls',
           format('%s of this publisher''s %s judged calls in %s h (%s%%) ended within %s s over their buffer: above %s%%; this call %s s on a %s s buffer',
                  x.s_near, x.s_judged, v_sho->'params'->>'hours',
                  round(x.s_near * 100.0 / nullif(x.s_judged, 0)),
                  v_sho->'params'->>'seconds_above_buffer', v_sho->'params'->>'share_percent',
                  x.duration, x.buffer),
           jsonb_build_object('near_buffer', x.s_near, 'judged', x.s_judged,
                              'share_percent', round(x.s_near * 100.0 / nullif(x.s_judged, 0)),
                              'threshold_percent', (v_sho->'params'->>'share_percent')::numeric,
                              'duration_seconds', x.duration, 'buffer_seconds', x.buffer)
      FROM x
     WHERE (v_sho->>'enabled')::boolean AND x.judged AND x.near
       AND x.s_judged >= (v_sho->'params'->>'min_calls')::int
       AND x.s_near * 100.0 / nullif(x.s_judged, 0) > (v_sho->'params'->>'share_percent')::numeric
    UNION ALL
    SELECT x.n, 5, x.lead_id, x.publisher_id, 'publisher_rejects',
           format('%s of this publisher''s %s judged calls in %s h (%s%%) were duplicates or rejected: above %s%%',
                  x.r_rejected, x.r_judged, v_rej->'params'->>'hours',
                  round(x.r_rejected * 100.0 / nullif(x.r_judged, 0)),
                  v_rej->'params'->>'share_percent'),
           jsonb_build_object('rejected', x.r_rejected, 'judged', x.r_judged,
                              'share_percent', round(x.r_rejected * 100.0 / nullif(x.r_judged, 0)),
                              'threshold_percent', (v_rej->'params'->>'share_percent')::numeric)
      FROM x
     WHERE (v_rej->>'enabled')::boolean AND x.judged AND x.status <> 'rejected'
       AND x.r_judged >= (v_rej->'params'->>'min_calls')::int
       AND x.r_rejected * 100.0 / nullif(x.r_judged, 0) > (v_rej->'params'->>'share_percent')::numeric),
  ins AS (
    INSERT INTO fraud_flags (lead_id, publisher_id, rule, action, reason, figures)
    SELECT c.lead_id, c.publisher_id, c.rule, coalesce(p_rules->c.rule->>'action', 'flag'),
           c.reason, c.figures
      FROM cand c ORDER BY c.n, c.r
    ON CONFLICT (lead_id, rule) DO NOTHING
    RETURNING id, lead_id, rule)
  UPDATE fraud_eval_rows b SET flags = f.flags, velocity = f.velocity
    FROM (SELECT i.lead_id,
                 jsonb_agg(jsonb_build_object('id', i.id, 'rule', i.rule) ORDER BY c.r) AS flags,
                 bool_or(i.rule = 'publisher_velocity') AS velocity
            FROM ins i JOIN cand c ON c.lead_id = i.lead_id AND c.rule = i.rule
           GROUP BY i.lead_id) f
   WHERE f.lead_id = b.lead_id;

  -- 5. The admins hear of a publisher's spike once per hour: on its first new velocity flag.
  WITH a AS (
    INSERT INTO fraud_alerts (publisher_id, hour)
    SELECT DISTINCT b.publisher_id, b.hour FROM fraud_eval_rows b WHERE b.velocity ORDER BY 1, 2
    ON CONFLICT DO NOTHING
    RETURNING publisher_id, hour)
  UPDATE fraud_eval_rows b SET alert = true
    FROM a
   WHERE b.publisher_id = a.publisher_id AND b.hour = a.hour
     AND b.n = (SELECT min(b2.n) FROM fraud_eval_rows b2
                 WHERE b2.velocity AND b2.publisher_id = a.publisher_id AND b2.hour = a.hour);

  -- A hold: an approved call goes back to pending for review (one approved later is held by
  -- leads_fraud_guard as it is judged).
  WITH held AS MATERIALIZED (
    SELECT b.lead_id, f.reason, b.status_reason
      FROM fraud_eval_rows b
      CROSS JOIN LATERAL (
        SELECT f.reason FROM fraud_flags f
         WHERE f.lead_id = b.lead_id AND f.status = 'open' AND f.action = 'hold'
         ORDER BY f.created_at, f.id LIMIT 1) f
     WHERE b.flags IS NOT NULL AND b.status = 'approved' AND NOT b.overridden),
  marked AS (
    UPDATE fraud_flags f SET held_from = held.status_reason
      FROM held
     WHERE f.lead_id = held.lead_id AND f.status = 'open' AND f.action = 'hold')
  UPDATE leads l SET status = 'pending', status_reason = 'Held for review: ' || held.reason
    FROM held
   WHERE l.id = held.lead_id;

  RETURN QUERY
    SELECT b.lead_id, b.publisher_id, b.flags, b.alert
      FROM fraud_eval_rows b WHERE b.flags IS NOT NULL ORDER BY b.n;
END $fn$;
--> statement-breakpoint
-- A handful of statements a batch: planned for their values (0050's generic plans served the
-- dozen per call).
ALTER FUNCTION fraud_evaluate(jsonb, jsonb) RESET plan_cache_mode;
--> statement-breakpoint
-- The per-call flag helper of 0038: nothing calls it now.
DROP FUNCTION fraud_flag(uuid, uuid, text, jsonb, text, jsonb);
