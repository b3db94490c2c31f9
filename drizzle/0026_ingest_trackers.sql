CREATE TABLE "tracking_numbers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"publisher_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracking_numbers_number_unique" UNIQUE("number")
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "tracker" text DEFAULT 'generic' NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "account_id" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "call_scope" uuid;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "signature" jsonb;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "call_id_fields" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations" ADD COLUMN "secret_params" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "phone_country" text DEFAULT 'US' NOT NULL;--> statement-breakpoint
ALTER TABLE "tracking_numbers" ADD CONSTRAINT "tracking_numbers_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_numbers" ADD CONSTRAINT "tracking_numbers_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_numbers" ADD CONSTRAINT "tracking_numbers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracking_numbers_pair_idx" ON "tracking_numbers" USING btree ("publisher_id","offer_id");--> statement-breakpoint
CREATE INDEX "tracking_numbers_offer_idx" ON "tracking_numbers" USING btree ("offer_id");--> statement-breakpoint
CREATE INDEX "tracking_numbers_created_idx" ON "tracking_numbers" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "integrations_account_idx" ON "integrations" USING btree ("tracker",lower("account_id"));--> statement-breakpoint
CREATE INDEX "integrations_call_scope_idx" ON "integrations" USING btree ("call_scope");--> statement-breakpoint
CREATE INDEX "leads_call_id_idx" ON "leads" USING btree ("external_call_id") WHERE "leads"."external_call_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_caller_key_idx" ON "leads" USING btree (caller_key("caller"));--> statement-breakpoint
CREATE INDEX "leads_tracking_key_idx" ON "leads" USING btree (caller_key("tracking_number"));--> statement-breakpoint
-- Issue 26: calls from the trackers operators use.
-- Integrations carry their tracker (its preset), the tracker account, a time zone, a signature
-- and the fields that identify a call when the tracker sends no call id. Integrations of one
-- tracker account share calls: `call_scope` names the integration whose id the account's leads
-- are kept under (leads.integration_id), so the same call reported by a pixel and a webhook is
-- one lead. Existing integrations are their own scope, so their leads stay where they are.
UPDATE integrations SET call_scope = id WHERE call_scope IS NULL;
--> statement-breakpoint
DROP FUNCTION ingest_calls(jsonb);
--> statement-breakpoint
DROP FUNCTION ingest_call(uuid, text, text, smallint, smallint, text, uuid, text, uuid, text, text,
  integer, integer, numeric, numeric, text, text, text, timestamptz, jsonb, text, text);
--> statement-breakpoint
-- ingest_call as in 0014, with two changes: `p_integration` is the call scope (the lead's
-- integration_id) and `p_source` the integration that received the request; the publisher and
-- the offer may be missing (null), in which case the tracking number's assignment is used.
CREATE FUNCTION ingest_call(
  p_integration uuid, p_source uuid, p_call_id text, p_event text, p_rank smallint, p_billable smallint,
  p_publisher text, p_publisher_id uuid, p_offer text, p_offer_id uuid,
  p_caller text, p_tracking text, p_seconds integer, p_minutes integer,
  p_revenue numeric, p_payout numeric, p_recording text, p_state text, p_zip text,
  p_ts timestamptz, p_tags jsonb, p_status text, p_reason text
) RETURNS TABLE (out_id uuid, out_status text, out_missing text)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_zero CONSTANT uuid := '00000000-0000-0000-0000-000000000000';
  v_found boolean;
  v_cur_id uuid; v_cur_status text; v_cur_rank smallint; v_cur_dur integer; v_cur_state text;
  v_cur_caller text; v_cur_ts timestamptz; v_cur_judged timestamptz; v_cur_outcome text;
  v_cur_overridden timestamptz;
  v_pub uuid; v_offer uuid;
  v_tn_pub uuid; v_tn_offer uuid;
  o record;
  v_payout numeric;
  v_dur integer; v_state text; v_caller text; v_ts timestamptz;
  v_judge boolean := false;
  v_set_status boolean := false;
  v_status text; v_reason text; v_outcome text; v_judged timestamptz;
  v_tz text; v_day date; v_month date;
  v_dup record;
  v_caps record;
  v_taken text[] := '{}';
  v_got integer;
  v_out_id uuid;
  v_out_status text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_integration::text || '/' || p_call_id, 13));

  SELECT l.id, l.status, l.publisher_id, l.offer_id, l.event_rank, l.duration_seconds, l.state,
         l.caller, l."timestamp", l.judged_at, l.rule_outcome, l.status_overridden_at
    INTO v_cur_id, v_cur_status, v_pub, v_offer, v_cur_rank, v_cur_dur, v_cur_state,
         v_cur_caller, v_cur_ts, v_cur_judged, v_cur_outcome, v_cur_overridden
    FROM leads l
   WHERE l.integration_id = p_integration AND l.external_call_id = p_call_id;
  v_found := FOUND;

  IF NOT v_found THEN
    -- Who the call belongs to: an external id attached on the integration that sent it (then
    -- on another integration of the same tracker account), else our own id; a field the
    -- tracker did not send at all is taken from the tracking number's assignment.
    IF p_publisher IS NULL OR p_offer IS NULL THEN
      SELECT t.publisher_id, t.offer_id INTO v_tn_pub, v_tn_offer
        FROM tracking_numbers t WHERE t.number = p_tracking;
    END IF;
    IF p_publisher IS NULL THEN
      v_pub := v_tn_pub;
    ELSE
      v_pub := coalesce(
        (SELECT m.publisher_id FROM integration_external_ids m
          WHERE m.kind = 'publisher' AND m.external_id = p_publisher
            AND m.integration_id IN (SELECT i.id FROM integrations i
                                      WHERE i.id = p_source OR coalesce(i.call_scope, i.id) = p_integration)
          ORDER BY (m.integration_id = p_source) DESC LIMIT 1),
        (SELECT u.id FROM users u WHERE u.id = p_publisher_id AND u.role = 'publisher'));
    END IF;
    IF v_pub IS NULL THEN
      RETURN QUERY SELECT NULL::uuid, NULL::text, 'publisher'::text;
      RETURN;
    END IF;
    IF p_offer IS NULL THEN
      v_offer := v_tn_offer;
    ELSE
      v_offer := coalesce(
        (SELECT m.offer_id FROM integration_external_ids m
          WHERE m.kind = 'offer' AND m.external_id = p_offer
            AND m.integration_id IN (SELECT i.id FROM integrations i
                                      WHERE i.id = p_source OR coalesce(i.call_scope, i.id) = p_integration)
          ORDER BY (m.integration_id = p_source) DESC LIMIT 1),
        (SELECT x.id FROM offers x WHERE x.id = p_offer_id));
    END IF;
    IF v_offer IS NULL THEN
      RETURN QUERY SELECT NULL::uuid, NULL::text, 'offer'::text;
      RETURN;
    END IF;
  END IF;

  SELECT x.payout, x.buffer_seconds, x.duplicate_days, x.daily_cap, x.monthly_cap,
         x.publisher_daily_cap, x.publisher_monthly_cap, x.allowed_states, x.hours_time_zone,
         x.open_days, x.open_from, x.open_to,
         (SELECT p.payout FROM offer_payout_overrides p
           WHERE p.offer_id = x.id AND p.publisher_id = v_pub) AS override
    INTO o FROM offers x WHERE x.id = v_offer;
  -- The admin's per-publisher payout wins over the tracker's, which wins over the offer's.
  v_payout := coalesce(o.override, p_payout);

  -- The lead as it will be after this event (the same merge as the upsert below).
  IF NOT v_found THEN
    v_dur := p_seconds; v_state := p_state; v_caller := p_caller; v_ts := coalesce(p_ts, now());
    v_judge := p_rank >= p_billable;
  ELSE
    v_dur := greatest(v_cur_dur, p_seconds);
    IF p_rank >= v_cur_rank THEN
      v_state := coalesce(p_state, v_cur_state); v_caller := coalesce(p_caller, v_cur_caller);
    ELSE
      v_state := coalesce(v_cur_state, p_state); v_caller := coalesce(v_cur_caller, p_caller);
    END IF;
    v_ts := least(v_cur_ts, p_ts);
    IF v_cur_overridden IS NULL THEN
      IF v_cur_judged IS NULL THEN
        v_judge := p_rank >= p_billable;
      ELSIF v_cur_outcome = 'short' AND v_dur >= o.buffer_seconds THEN
        v_judge := true;
      END IF;
    END IF;
  END IF;

  IF v_judge THEN
    v_judged := now();
    v_outcome := 'payable';
    IF o.buffer_seconds IS NOT NULL AND coalesce(v_dur, 0) < o.buffer_seconds THEN
      v_outcome := 'short';
      v_reason := CASE WHEN v_dur IS NULL
        THEN format('No duration reported; the offer pays calls of %s s or more', o.buffer_seconds)
        ELSE format('Duration %s s under the %s s buffer', v_dur, o.buffer_seconds) END;
    ELSIF cardinality(o.allowed_states) > 0
          AND (v_state IS NULL OR NOT (upper(v_state) = ANY (o.allowed_states))) THEN
      v_outcome := 'state';
      v_reason := CASE WHEN v_state IS NULL
        THEN format('Caller state unknown; the offer takes calls from %s only',
                    array_to_string(o.allowed_states, ', '))
        ELSE format('Caller state %s is not among the offer''s states (%s)', v_state,
                    array_to_string(o.allowed_states, ', ')) END;
    ELSIF o.hours_time_zone IS NOT NULL
          AND NOT offer_open_at(o.hours_time_zone, o.open_days, o.open_from, o.open_to, v_ts) THEN
      v_outcome := 'closed';
      v_reason := format('Call at %s on %s (%s), outside the offer''s open hours',
        to_char(v_ts AT TIME ZONE o.hours_time_zone, 'HH24:MI'),
        trim(to_char(v_ts AT TIME ZONE o.hours_time_zone, 'Day')), o.hours_time_zone);
    END IF;

    IF v_outcome = 'payable' AND (o.duplicate_days IS NOT NULL OR o.daily_cap IS NOT NULL
        OR o.monthly_cap IS NOT NULL OR o.publisher_daily_cap IS NOT NULL
        OR o.publisher_monthly_cap IS NOT NULL) THEN
      v_tz := coalesce((SELECT s.timezone FROM settings s WHERE s.id = 1), 'UTC');
    END IF;

    IF v_outcome = 'payable' AND o.duplicate_days IS NOT NULL AND caller_key(v_caller) <> '' THEN
      -- Two calls of one caller judged at once: the second waits and sees the first.
      PERFORM pg_advisory_xact_lock(hashtextextended(v_offer::text || '/' || caller_key(v_caller), 14));
      SELECT l.id, l.external_call_id, l."timestamp" INTO v_dup
        FROM leads l
       WHERE l.offer_id = v_offer AND caller_key(l.caller) = caller_key(v_caller)
         AND l.status = 'approved' AND l.caller IS NOT NULL
         AND l."timestamp" > v_ts - make_interval(days => o.duplicate_days)
         AND l."timestamp" < v_ts + make_interval(days => o.duplicate_days)
         AND l.id IS DISTINCT FROM v_cur_id
       ORDER BY l."timestamp"
       LIMIT 1;
      IF FOUND THEN
        v_outcome := 'duplicate';
        v_reason := format('Duplicate of call %s on %s',
          coalesce(v_dup.external_call_id, v_dup.id::text),
          to_char(v_dup."timestamp" AT TIME ZONE v_tz, 'YYYY-MM-DD'));
      END IF;
    END IF;

    IF v_outcome = 'payable' THEN
      -- Caps: one counter row per (offer, publisher or everyone, day or month in the network's
      -- time zone), taken in a fixed order; a full one gives back those taken before it.
      v_day := (v_ts AT TIME ZONE v_tz)::date;
      v_month := date_trunc('month', v_day)::date;
      FOR v_caps IN
        SELECT * FROM (VALUES
          (1, v_zero, 'day', v_day, o.daily_cap, 'Over the daily cap of %s'),
          (2, v_zero, 'month', v_month, o.monthly_cap, 'Over the monthly cap of %s'),
          (3, v_pub, 'day', v_day, o.publisher_daily_cap, 'Over the daily cap of %s per publisher'),
          (4, v_pub, 'month', v_month, o.publisher_monthly_cap, 'Over the monthly cap of %s per publisher')
        ) AS c(n, pub, period, starts, cap, msg)
        WHERE c.cap IS NOT NULL ORDER BY c.n
      LOOP
        INSERT INTO offer_cap_usage AS u (offer_id, publisher_id, period, starts, used)
        VALUES (v_offer, v_caps.pub, v_caps.period, v_caps.starts, 1)
        ON CONFLICT (offer_id, publisher_id, period, starts)
        DO UPDATE SET used = u.used + 1 WHERE u.used < v_caps.cap
        RETURNING u.used INTO v_got;
        IF NOT FOUND THEN
          v_outcome := 'over_cap';
          v_reason := format(v_caps.msg, v_caps.cap);
          UPDATE offer_cap_usage u SET used = u.used - 1
           WHERE u.offer_id = v_offer
             AND (u.publisher_id::text || '/' || u.period || '/' || u.starts::text) = ANY (v_taken);
          EXIT;
        END IF;
        v_taken := v_taken || (v_caps.pub::text || '/' || v_caps.period || '/' || v_caps.starts::text);
      END LOOP;
    END IF;

    IF v_outcome = 'payable' THEN
      v_status := 'approved';
      v_reason := CASE WHEN o.buffer_seconds IS NOT NULL
        THEN format('Payable: duration %s s meets the %s s buffer', v_dur, o.buffer_seconds)
        ELSE 'Payable: the call meets the offer''s rules' END;
    ELSE
      v_status := 'rejected';
    END IF;
    v_set_status := true;
  ELSIF NOT v_found OR (v_cur_judged IS NULL AND p_rank > v_cur_rank) THEN
    -- Not judged (yet): the event's own status (pending, or rejected for a tracker error).
    v_status := p_status; v_reason := p_reason; v_set_status := true;
  END IF;

  INSERT INTO leads AS l (
    publisher_id, offer_id, payout, status, status_reason, rule_outcome, judged_at,
    call_duration, duration_seconds, "timestamp", integration_id, external_call_id, caller,
    tracking_number, revenue, recording_url, state, zip, tags, event_rank, last_event,
    last_event_at
  ) VALUES (
    -- (a row that conflicts takes nothing of these but the event's details)
    v_pub, v_offer, coalesce(v_payout, o.payout), coalesce(v_status, p_status), v_reason, v_outcome, v_judged,
    p_minutes, p_seconds, coalesce(p_ts, now()), p_integration, p_call_id, p_caller,
    p_tracking, p_revenue, p_recording, p_state, p_zip, p_tags, p_rank, p_event, now()
  )
  ON CONFLICT (integration_id, external_call_id) DO UPDATE SET
    event_rank = greatest(l.event_rank, excluded.event_rank),
    status = CASE WHEN v_set_status AND l.status_overridden_at IS NULL THEN v_status ELSE l.status END,
    status_reason = CASE WHEN v_set_status AND l.status_overridden_at IS NULL
                         THEN v_reason ELSE l.status_reason END,
    rule_outcome = CASE WHEN v_judge AND l.status_overridden_at IS NULL
                        THEN v_outcome ELSE l.rule_outcome END,
    judged_at = CASE WHEN v_judge AND l.status_overridden_at IS NULL THEN v_judged ELSE l.judged_at END,
    last_event = CASE WHEN excluded.event_rank > l.event_rank THEN excluded.last_event ELSE l.last_event END,
    duration_seconds = greatest(l.duration_seconds, excluded.duration_seconds),
    call_duration = greatest(l.call_duration, excluded.call_duration),
    payout = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(v_payout, l.payout) ELSE l.payout END,
    revenue = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.revenue, l.revenue)
                   ELSE coalesce(l.revenue, excluded.revenue) END,
    caller = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.caller, l.caller)
                  ELSE coalesce(l.caller, excluded.caller) END,
    tracking_number = CASE WHEN excluded.event_rank >= l.event_rank
                           THEN coalesce(excluded.tracking_number, l.tracking_number)
                           ELSE coalesce(l.tracking_number, excluded.tracking_number) END,
    recording_url = CASE WHEN excluded.event_rank >= l.event_rank
                         THEN coalesce(excluded.recording_url, l.recording_url)
                         ELSE coalesce(l.recording_url, excluded.recording_url) END,
    state = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.state, l.state)
                 ELSE coalesce(l.state, excluded.state) END,
    zip = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.zip, l.zip)
               ELSE coalesce(l.zip, excluded.zip) END,
    tags = CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(l.tags, '{}'::jsonb) || excluded.tags
                ELSE excluded.tags || coalesce(l.tags, '{}'::jsonb) END,
    "timestamp" = least(l."timestamp", p_ts),
    last_event_at = now()
  -- Only a real change writes the row (and fires the totals triggers).
  WHERE (l.event_rank, l.status, l.status_reason, l.rule_outcome, l.judged_at, l.last_event,
         l.duration_seconds, l.call_duration, l.payout, l.revenue, l.caller, l.tracking_number,
         l.recording_url, l.state, l.zip, l.tags, l."timestamp")
    IS DISTINCT FROM (
      greatest(l.event_rank, excluded.event_rank),
      CASE WHEN v_set_status AND l.status_overridden_at IS NULL THEN v_status ELSE l.status END,
      CASE WHEN v_set_status AND l.status_overridden_at IS NULL THEN v_reason ELSE l.status_reason END,
      CASE WHEN v_judge AND l.status_overridden_at IS NULL THEN v_outcome ELSE l.rule_outcome END,
      CASE WHEN v_judge AND l.status_overridden_at IS NULL THEN v_judged ELSE l.judged_at END,
      CASE WHEN excluded.event_rank > l.event_rank THEN excluded.last_event ELSE l.last_event END,
      greatest(l.duration_seconds, excluded.duration_seconds),
      greatest(l.call_duration, excluded.call_duration),
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(v_payout, l.payout) ELSE l.payout END,
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.revenue, l.revenue)
           ELSE coalesce(l.revenue, excluded.revenue) END,
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.caller, l.caller)
           ELSE coalesce(l.caller, excluded.caller) END,
      CASE WHEN excluded.event_rank >= l.event_rank
           THEN coalesce(excluded.tracking_number, l.tracking_number)
           ELSE coalesce(l.tracking_number, excluded.tracking_number) END,
      CASE WHEN excluded.event_rank >= l.event_rank
           THEN coalesce(excluded.recording_url, l.recording_url)
           ELSE coalesce(l.recording_url, excluded.recording_url) END,
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.state, l.state)
           ELSE coalesce(l.state, excluded.state) END,
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(excluded.zip, l.zip)
           ELSE coalesce(l.zip, excluded.zip) END,
      CASE WHEN excluded.event_rank >= l.event_rank THEN coalesce(l.tags, '{}'::jsonb) || excluded.tags
           ELSE excluded.tags || coalesce(l.tags, '{}'::jsonb) END,
      least(l."timestamp", p_ts))
  RETURNING l.id, l.status INTO v_out_id, v_out_status;

  IF NOT FOUND THEN
    -- A repeated or older event: nothing changed.
    RETURN QUERY SELECT l.id, l.status, NULL::text FROM leads l
      WHERE l.integration_id = p_integration AND l.external_call_id = p_call_id;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_out_id, v_out_status, NULL::text;
END $fn$;
--> statement-breakpoint
-- ingest_calls as in 0022; `source` is the integration checked by the guard.
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
      SELECT 1 FROM integrations i WHERE i.id = (c->>'source')::uuid
        AND i.updated_at = (c->>'unchanged_since')::timestamptz AND i.revoked_at IS NULL) THEN
      out_failed := 'stale';
      RETURN NEXT;
      CONTINUE;
    END IF;
    BEGIN
      SELECT * INTO r FROM ingest_call(
        (c->>'integration')::uuid, (c->>'source')::uuid, c->>'call_id', c->>'event', (c->>'rank')::smallint,
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
