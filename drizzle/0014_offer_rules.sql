CREATE TABLE "offer_cap_usage" (
	"offer_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"period" text NOT NULL,
	"starts" date NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "offer_cap_usage_offer_id_publisher_id_period_starts_pk" PRIMARY KEY("offer_id","publisher_id","period","starts"),
	CONSTRAINT "offer_cap_usage_period_check" CHECK ("offer_cap_usage"."period" in ('day', 'month'))
);
--> statement-breakpoint
CREATE TABLE "offer_payout_overrides" (
	"offer_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"payout" numeric(12, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_payout_overrides_offer_id_publisher_id_pk" PRIMARY KEY("offer_id","publisher_id"),
	CONSTRAINT "offer_payout_overrides_payout_check" CHECK ("offer_payout_overrides"."payout" >= 0)
);
--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "rule_outcome" text;--> statement-breakpoint
ALTER TABLE "leads" ADD COLUMN "judged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "buffer_seconds" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "duplicate_days" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "daily_cap" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "monthly_cap" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "publisher_daily_cap" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "publisher_monthly_cap" integer;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "allowed_states" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "hours_time_zone" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "open_days" smallint[];--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "open_from" time;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "open_to" time;--> statement-breakpoint
ALTER TABLE "offer_cap_usage" ADD CONSTRAINT "offer_cap_usage_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_payout_overrides" ADD CONSTRAINT "offer_payout_overrides_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_payout_overrides" ADD CONSTRAINT "offer_payout_overrides_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_rule_outcome_check" CHECK ("leads"."rule_outcome" in ('payable','short','state','closed','duplicate','over_cap'));--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_rules_check" CHECK ("offers"."buffer_seconds" > 0 and "offers"."duplicate_days" > 0 and "offers"."daily_cap" > 0
        and "offers"."monthly_cap" > 0 and "offers"."publisher_daily_cap" > 0 and "offers"."publisher_monthly_cap" > 0);--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_open_hours_check" CHECK (("offers"."hours_time_zone" is null) = ("offers"."open_days" is null)
        and ("offers"."hours_time_zone" is null) = ("offers"."open_from" is null)
        and ("offers"."hours_time_zone" is null) = ("offers"."open_to" is null));--> statement-breakpoint
-- Offer rules that decide whether an ingested call pays (issue 13, item 4). Hand-written: the
-- caller key, the open-hours test and the one-round-trip ingestion function.

-- The last 10 digits of a phone number: +1 (555) 123-4567, 15551234567 and 5551234567 are the
-- same caller for the duplicate window.
CREATE FUNCTION caller_key(c text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT right(regexp_replace(c, '[^0-9]', '', 'g'), 10)
$$;
--> statement-breakpoint
-- Earlier payable calls of an offer by caller: the duplicate window's look-up.
CREATE INDEX leads_offer_caller_ts_idx ON leads (offer_id, caller_key(caller), "timestamp")
  WHERE status = 'approved' AND caller IS NOT NULL;
--> statement-breakpoint
-- True when `at` falls in the open hours: on one of `days` (ISO, 1 = Monday) from `open_from`
-- to `open_to` in `tz`. A window whose end is not after its start runs across midnight and
-- belongs to the day it opens on (Fri 20:00-02:00 covers Saturday 01:00); equal ends = all day.
CREATE FUNCTION offer_open_at(tz text, days smallint[], open_from time, open_to time, at timestamptz)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
DECLARE
  loc timestamp := at AT TIME ZONE tz;
  d smallint := extract(isodow FROM loc)::smallint;
  t time := loc::time;
  prev smallint := CASE WHEN d = 1 THEN 7 ELSE d - 1 END;
BEGIN
  IF open_from < open_to THEN
    RETURN d = ANY (days) AND t >= open_from AND t < open_to;
  ELSIF open_from = open_to THEN
    RETURN d = ANY (days);
  END IF;
  RETURN (d = ANY (days) AND t >= open_from) OR (prev = ANY (days) AND t < open_to);
END $$;
--> statement-breakpoint
-- One call event into one lead, in one round trip (server/db/lead-ingest.ts explains the rules):
-- events of one call are serialized by an advisory lock on (integration, call id); the lead is
-- read, judged by its offer's rules when this event makes it billable (or its duration grows
-- past the buffer after a "short" verdict), cap slots are taken from offer_cap_usage by a
-- conditional upsert (never more than the cap, whatever the concurrency), and the lead is
-- written by one INSERT ... ON CONFLICT that changes nothing for a repeated or older event.
-- Answers the lead, or which of publisher/offer did not resolve.
CREATE FUNCTION ingest_call(
  p_integration uuid, p_call_id text, p_event text, p_rank smallint, p_billable smallint,
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
    -- An external id attached on this integration first, else our own id.
    v_pub := coalesce(
      (SELECT m.publisher_id FROM integration_external_ids m
        WHERE m.integration_id = p_integration AND m.kind = 'publisher' AND m.external_id = p_publisher),
      (SELECT u.id FROM users u WHERE u.id = p_publisher_id AND u.role = 'publisher'));
    IF v_pub IS NULL THEN
      RETURN QUERY SELECT NULL::uuid, NULL::text, 'publisher'::text;
      RETURN;
    END IF;
    v_offer := coalesce(
      (SELECT m.offer_id FROM integration_external_ids m
        WHERE m.integration_id = p_integration AND m.kind = 'offer' AND m.external_id = p_offer),
      (SELECT x.id FROM offers x WHERE x.id = p_offer_id));
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
