CREATE TABLE "blocked_callers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fraud_alerts" (
	"publisher_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	CONSTRAINT "fraud_alerts_publisher_id_hour_pk" PRIMARY KEY("publisher_id","hour")
);
--> statement-breakpoint
CREATE TABLE "fraud_caller_hours" (
	"caller" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "fraud_caller_hours_caller_hour_pk" PRIMARY KEY("caller","hour")
);
--> statement-breakpoint
CREATE TABLE "fraud_config" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fraud_flags" (
	"id" uuid PRIMARY KEY DEFAULT uuid_v7() NOT NULL,
	"lead_id" uuid NOT NULL,
	"publisher_id" uuid NOT NULL,
	"rule" text NOT NULL,
	"action" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"reason" text NOT NULL,
	"figures" jsonb NOT NULL,
	"held_from" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	"resolution_note" text
);
--> statement-breakpoint
CREATE TABLE "fraud_lead_checks" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"judged" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fraud_publisher_hours" (
	"publisher_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"judged" integer DEFAULT 0 NOT NULL,
	"near_buffer" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "fraud_publisher_hours_publisher_id_hour_pk" PRIMARY KEY("publisher_id","hour")
);
--> statement-breakpoint
CREATE TABLE "fraud_rules" (
	"rule" text PRIMARY KEY NOT NULL,
	"enabled" boolean NOT NULL,
	"action" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "leads" DROP CONSTRAINT "leads_rule_outcome_check";--> statement-breakpoint
ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_event_check";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind_check";--> statement-breakpoint
ALTER TABLE "blocked_callers" ADD CONSTRAINT "blocked_callers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fraud_flags" ADD CONSTRAINT "fraud_flags_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fraud_flags" ADD CONSTRAINT "fraud_flags_publisher_id_users_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fraud_flags" ADD CONSTRAINT "fraud_flags_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fraud_lead_checks" ADD CONSTRAINT "fraud_lead_checks_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "blocked_callers_value_key" ON "blocked_callers" USING btree ("value");--> statement-breakpoint
CREATE INDEX "blocked_callers_created_idx" ON "blocked_callers" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE UNIQUE INDEX "fraud_flags_lead_rule_key" ON "fraud_flags" USING btree ("lead_id","rule");--> statement-breakpoint
CREATE INDEX "fraud_flags_status_created_idx" ON "fraud_flags" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "fraud_flags_publisher_created_idx" ON "fraud_flags" USING btree ("publisher_id","created_at");--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_rule_outcome_check" CHECK ("leads"."rule_outcome" in ('payable','short','state','closed','duplicate','over_cap','blocked'));--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_event_check" CHECK ("notification_preferences"."event" in ('publisher_signed_up','application_submitted','dispute_opened','campaign_created','fraud_velocity'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('publisher_signed_up','application_submitted','dispute_opened','campaign_created','fraud_velocity','dispute_reply','publisher_approved','publisher_blocked','application_approved','application_rejected','dispute_answered','dispute_accepted','dispute_declined','mfa_reset','email_changed'));--> statement-breakpoint
-- Hand-written (issue 32): the rules' version row, the blocklist's lookup, the guard on every
-- lead write (blocked caller → rejected; an open "hold" flag → stays pending), and the rules'
-- evaluation of a batch of written calls (server/modules/fraud/README.md).
INSERT INTO fraud_config (id, version) VALUES (1, 0);
--> statement-breakpoint
-- The entry blocking `p_caller` (E.164): the number itself or its longest blocked prefix, not
-- expired; answers the lead's reason. One probe of the unique index per leading part.
CREATE FUNCTION fraud_blocked_reason(p_caller text) RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT format('Blocked caller (%s %s): %s',
                CASE WHEN b.kind = 'prefix' THEN 'prefix' ELSE 'number' END, b.value, b.reason)
    FROM blocked_callers b
   WHERE b.value IN (SELECT left(p_caller, n) FROM generate_series(2, length(p_caller)) n)
     AND (b.kind = 'prefix' OR b.value = p_caller)
     AND (b.expires_at IS NULL OR b.expires_at > now())
   ORDER BY length(b.value) DESC
   LIMIT 1
$fn$;
--> statement-breakpoint
-- Before a lead is written (any writer: ingest, replay, import): a call from a blocked caller
-- is rejected with the reason and marked judged (`blocked`), so no later event judges it
-- again; a call becoming approved while it has an open "hold" flag stays pending for review.
-- A status set by hand is never touched.
CREATE FUNCTION leads_fraud_guard() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  v_block text;
  v_hold text;
BEGIN
  IF NEW.status_overridden_at IS NOT NULL OR NEW.rule_outcome = 'blocked' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.caller IS NOT DISTINCT FROM OLD.caller
     AND NEW.status IS NOT DISTINCT FROM OLD.status THEN
    RETURN NEW;
  END IF;
  -- A rejected call pays nothing already (one judged again later is checked then).
  -- (an empty blocklist costs one probe, not one per leading part of the number)
  IF NEW.caller IS NOT NULL AND NEW.status <> 'rejected'
     AND EXISTS (SELECT 1 FROM blocked_callers) THEN
    v_block := fraud_blocked_reason(NEW.caller);
    IF v_block IS NOT NULL THEN
      NEW.status := 'rejected';
      NEW.status_reason := v_block;
      NEW.rule_outcome := 'blocked';
      NEW.judged_at := coalesce(NEW.judged_at, now());
      RETURN NEW;
    END IF;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.status = 'approved' THEN
    SELECT f.reason INTO v_hold FROM fraud_flags f
     WHERE f.lead_id = NEW.id AND f.status = 'open' AND f.action = 'hold'
     ORDER BY f.created_at LIMIT 1;
    IF FOUND THEN
      NEW.status := 'pending';
      NEW.status_reason := 'Held for review: ' || v_hold;
    END IF;
  END IF;
  RETURN NEW;
END $fn$;
--> statement-breakpoint
CREATE TRIGGER leads_fraud_guard BEFORE INSERT OR UPDATE ON leads
  FOR EACH ROW EXECUTE FUNCTION leads_fraud_guard();
--> statement-breakpoint
-- One flag (once per lead and rule); its id, or null when the lead had it already.
CREATE FUNCTION fraud_flag(p_lead uuid, p_pub uuid, p_rule text, p_rules jsonb, p_reason text,
                           p_figures jsonb) RETURNS uuid
LANGUAGE plpgsql AS $fn$
DECLARE
  v_id uuid;
BEGIN
  INSERT INTO fraud_flags (lead_id, publisher_id, rule, action, reason, figures)
  VALUES (p_lead, p_pub, p_rule, coalesce(p_rules->p_rule->>'action', 'flag'), p_reason, p_figures)
  ON CONFLICT (lead_id, rule) DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $fn$;
--> statement-breakpoint
-- The rules on a batch of written calls (`p_items`: [{id, caller, anomaly, anomaly_figures}],
-- caller in E.164 or null; `p_rules`: {rule: {enabled, action, params}}, defaults merged).
-- Each lead is counted once at first sight (calls per caller and per publisher-hour) and once
-- when judged (judged, near the buffer, rejected per publisher-hour); every rule reads those
-- counters (a few rows), never the leads. Answers the leads that got new flags.
CREATE FUNCTION fraud_evaluate(p_items jsonb, p_rules jsonb)
RETURNS TABLE (out_lead uuid, out_publisher uuid, out_flags jsonb, out_alert boolean)
LANGUAGE plpgsql AS $fn$
DECLARE
  it jsonb;
  l record;
  s record;
  v_new boolean;
  v_hour timestamptz;
  v_caller text;
  v_n integer;
  v_usual numeric;
  v_p jsonb;
  v_id uuid;
  v_near boolean;
  v_rej boolean;
  v_hold text;
BEGIN
  -- One evaluation at a time across instances: the counters are updated in one order.
  PERFORM pg_advisory_xact_lock(hashtextextended('fraud_evaluate', 32));
  FOR it IN SELECT value FROM jsonb_array_elements(p_items) LOOP
    SELECT le.id, le.publisher_id, le.status, le.status_reason, le.rule_outcome, le.judged_at,
           le.duration_seconds, le."timestamp" AS ts, le.status_overridden_at, o.buffer_seconds
      INTO l FROM leads le JOIN offers o ON o.id = le.offer_id
     WHERE le.id = (it->>'id')::uuid;
    IF NOT FOUND THEN CONTINUE; END IF;
    out_flags := '[]'::jsonb;
    out_alert := false;
    v_hour := date_trunc('hour', l.ts);
    v_caller := it->>'caller';

    INSERT INTO fraud_lead_checks AS c (lead_id, judged) VALUES (l.id, l.judged_at IS NOT NULL)
    ON CONFLICT (lead_id) DO UPDATE SET judged = true WHERE NOT c.judged AND excluded.judged
    RETURNING (c.xmax::text = '0') INTO v_new;
    IF NOT FOUND THEN CONTINUE; END IF;

    IF v_new THEN
      INSERT INTO fraud_publisher_hours AS h (publisher_id, hour, calls)
      VALUES (l.publisher_id, v_hour, 1)
      ON CONFLICT (publisher_id, hour) DO UPDATE SET calls = h.calls + 1
      RETURNING h.calls INTO v_n;
      v_p := p_rules->'publisher_velocity';
      IF (v_p->>'enabled')::boolean THEN
        SELECT coalesce(sum(h.calls), 0)::numeric / (v_p->'params'->>'weeks')::int INTO v_usual
          FROM fraud_publisher_hours h
         WHERE h.publisher_id = l.publisher_id
           AND h.hour IN (SELECT v_hour - make_interval(weeks => w)
                            FROM generate_series(1, (v_p->'params'->>'weeks')::int) w);
        IF v_n >= (v_p->'params'->>'min_calls')::int
           AND v_n > (v_p->'params'->>'multiplier')::numeric * v_usual THEN
          v_id := fraud_flag(l.id, l.publisher_id, 'publisher_velocity', p_rules,
            format('%s calls from this publisher in the hour from %s UTC, usually %s at this weekday and hour (last %s weeks): over %s× the usual and at least %s',
                   v_n, to_char(v_hour AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:00'), round(v_usual, 1),
                   v_p->'params'->>'weeks', v_p->'params'->>'multiplier', v_p->'params'->>'min_calls'),
            jsonb_build_object('calls_this_hour', v_n, 'usual', round(v_usual, 1),
                               'multiplier', (v_p->'params'->>'multiplier')::numeric,
                               'min_calls', (v_p->'params'->>'min_calls')::int,
                               'hour', to_char(v_hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:00"Z"')));
          IF v_id IS NOT NULL THEN
            out_flags := out_flags || jsonb_build_array(jsonb_build_object('id', v_id, 'rule', 'publisher_velocity'));
            INSERT INTO fraud_alerts (publisher_id, hour) VALUES (l.publisher_id, v_hour)
            ON CONFLICT DO NOTHING;
            out_alert := FOUND;
          END IF;
        END IF;
      END IF;

      IF v_caller IS NOT NULL THEN
        INSERT INTO fraud_caller_hours AS ch (caller, hour, calls) VALUES (v_caller, v_hour, 1)
        ON CONFLICT (caller, hour) DO UPDATE SET calls = ch.calls + 1;
        v_p := p_rules->'repeat_caller';
        IF (v_p->>'enabled')::boolean THEN
          SELECT coalesce(sum(ch.calls), 0) INTO v_n FROM fraud_caller_hours ch
           WHERE ch.caller = v_caller AND ch.hour <= v_hour
             AND ch.hour > v_hour - make_interval(hours => (v_p->'params'->>'hours')::int);
          IF v_n > (v_p->'params'->>'max_calls')::int THEN
            v_id := fraud_flag(l.id, l.publisher_id, 'repeat_caller', p_rules,
              format('%s calls from %s in %s h across offers: more than %s',
                     v_n, v_caller, v_p->'params'->>'hours', v_p->'params'->>'max_calls'),
              jsonb_build_object('calls', v_n, 'caller', v_caller,
                                 'hours', (v_p->'params'->>'hours')::int,
                                 'max_calls', (v_p->'params'->>'max_calls')::int));
            IF v_id IS NOT NULL THEN
              out_flags := out_flags || jsonb_build_array(jsonb_build_object('id', v_id, 'rule', 'repeat_caller'));
            END IF;
          END IF;
        END IF;
      END IF;

      v_p := p_rules->'caller_anomaly';
      IF (v_p->>'enabled')::boolean AND it->>'anomaly' IS NOT NULL THEN
        v_id := fraud_flag(l.id, l.publisher_id, 'caller_anomaly', p_rules, it->>'anomaly',
                           coalesce(it->'anomaly_figures', '{}'::jsonb));
        IF v_id IS NOT NULL THEN
          out_flags := out_flags || jsonb_build_array(jsonb_build_object('id', v_id, 'rule', 'caller_anomaly'));
        END IF;
      END IF;
    END IF;

    IF l.judged_at IS NOT NULL THEN
      v_p := p_rules->'short_calls';
      v_near := l.buffer_seconds IS NOT NULL AND l.duration_seconds IS NOT NULL
        AND l.duration_seconds >= l.buffer_seconds
        AND l.duration_seconds <= l.buffer_seconds + (v_p->'params'->>'seconds_above_buffer')::int;
      v_rej := l.status = 'rejected';
      INSERT INTO fraud_publisher_hours AS h (publisher_id, hour, judged, near_buffer, rejected)
      VALUES (l.publisher_id, v_hour, 1, v_near::int, v_rej::int)
      ON CONFLICT (publisher_id, hour) DO UPDATE SET judged = h.judged + 1,
        near_buffer = h.near_buffer + excluded.near_buffer, rejected = h.rejected + excluded.rejected;

      IF (v_p->>'enabled')::boolean AND v_near THEN
        SELECT coalesce(sum(h.judged), 0) AS judged, coalesce(sum(h.near_buffer), 0) AS near
          INTO s FROM fraud_publisher_hours h
         WHERE h.publisher_id = l.publisher_id AND h.hour <= v_hour
           AND h.hour > v_hour - make_interval(hours => (v_p->'params'->>'hours')::int);
        IF s.judged >= (v_p->'params'->>'min_calls')::int
           AND s.near * 100.0 / s.judged > (v_p->'params'->>'share_percent')::numeric THEN
          v_id := fraud_flag(l.id, l.publisher_id, 'short_calls', p_rules,
            format('%s of this publisher''s %s judged calls in %s h (%s%%) ended within %s s over their buffer: above %s%%; this call %s s on a %s s buffer',
                   s.near, s.judged, v_p->'params'->>'hours', round(s.near * 100.0 / s.judged),
                   v_p->'params'->>'seconds_above_buffer', v_p->'params'->>'share_percent',
                   l.duration_seconds, l.buffer_seconds),
            jsonb_build_object('near_buffer', s.near, 'judged', s.judged,
                               'share_percent', round(s.near * 100.0 / s.judged),
                               'threshold_percent', (v_p->'params'->>'share_percent')::numeric,
                               'duration_seconds', l.duration_seconds,
                               'buffer_seconds', l.buffer_seconds));
          IF v_id IS NOT NULL THEN
            out_flags := out_flags || jsonb_build_array(jsonb_build_object('id', v_id, 'rule', 'short_calls'));
          END IF;
        END IF;
      END IF;

      v_p := p_rules->'publisher_rejects';
      IF (v_p->>'enabled')::boolean AND l.status <> 'rejected' THEN
        SELECT coalesce(sum(h.judged), 0) AS judged, coalesce(sum(h.rejected), 0) AS rejected
          INTO s FROM fraud_publisher_hours h
         WHERE h.publisher_id = l.publisher_id AND h.hour <= v_hour
           AND h.hour > v_hour - make_interval(hours => (v_p->'params'->>'hours')::int);
        IF s.judged >= (v_p->'params'->>'min_calls')::int
           AND s.rejected * 100.0 / s.judged > (v_p->'params'->>'share_percent')::numeric THEN
          v_id := fraud_flag(l.id, l.publisher_id, 'publisher_rejects', p_rules,
            format('%s of this publisher''s %s judged calls in %s h (%s%%) were duplicates or rejected: above %s%%',
                   s.rejected, s.judged, v_p->'params'->>'hours', round(s.rejected * 100.0 / s.judged),
                   v_p->'params'->>'share_percent'),
            jsonb_build_object('rejected', s.rejected, 'judged', s.judged,
                               'share_percent', round(s.rejected * 100.0 / s.judged),
                               'threshold_percent', (v_p->'params'->>'share_percent')::numeric));
          IF v_id IS NOT NULL THEN
            out_flags := out_flags || jsonb_build_array(jsonb_build_object('id', v_id, 'rule', 'publisher_rejects'));
          END IF;
        END IF;
      END IF;
    END IF;

    IF jsonb_array_length(out_flags) > 0 THEN
      -- A hold: an approved call goes back to pending for review (one approved later is held by
      -- leads_fraud_guard as it is judged).
      SELECT f.reason INTO v_hold FROM fraud_flags f
       WHERE f.lead_id = l.id AND f.status = 'open' AND f.action = 'hold'
       ORDER BY f.created_at LIMIT 1;
      IF FOUND AND l.status = 'approved' AND l.status_overridden_at IS NULL THEN
        UPDATE fraud_flags f SET held_from = l.status_reason
         WHERE f.lead_id = l.id AND f.status = 'open' AND f.action = 'hold';
        UPDATE leads SET status = 'pending', status_reason = 'Held for review: ' || v_hold
         WHERE id = l.id;
      END IF;
      out_lead := l.id;
      out_publisher := l.publisher_id;
      RETURN NEXT;
    END IF;
  END LOOP;
END $fn$;
