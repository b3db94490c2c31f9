-- A new lead's timeline row (lead_events, drizzle/0013) and its outbound event (outbound_events,
-- drizzle/0031) written once per INSERT statement, not once per row (issue 26's ingestion row).
-- Since 0062 a batch of calls inserts its new leads in one statement, but each row still fired
-- two row triggers, each one INSERT of one row, and each of those INSERTs fired its table's
-- "rows were written" statement trigger (drizzle/0041: a transition table and a NOTIFY check).
-- Now each is one INSERT … SELECT from the statement's new rows, in the leads' id order (their
-- insertion order), with the same rows, values and conditions: a timeline row for a lead that
-- carries a tracker event, an outbound event while a publisher postback or an enabled lead
-- webhook listens. An INSERT … ON CONFLICT DO UPDATE lists only the rows it inserted; the rows
-- it updated still go through the row triggers of updates (leads_events_update,
-- leads_outbound_update), which are unchanged.
CREATE FUNCTION leads_record_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO lead_events (lead_id, event, status, status_reason, duration_seconds, payout)
  SELECT n.id, n.last_event, n.status, n.status_reason, n.duration_seconds, n.payout
    FROM new_rows n
   WHERE n.last_event IS NOT NULL
   ORDER BY n.id;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
CREATE FUNCTION leads_outbound_events_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO outbound_events (type, lead_id, data)
  SELECT 'lead.created', n.id,
         jsonb_build_object('status', n.status, 'previous_status', NULL::text,
                            'payout', n.payout, 'previous_payout', NULL::numeric,
                            'status_reason', n.status_reason)
    FROM new_rows n
   WHERE EXISTS (SELECT 1 FROM postback_templates p WHERE p.publisher_id = n.publisher_id)
      OR EXISTS (SELECT 1 FROM webhook_endpoints
                  WHERE enabled AND events && '{lead.created,lead.status_changed}'::text[])
   ORDER BY n.id;
  RETURN NULL;
END $fn$;
--> statement-breakpoint
DROP TRIGGER leads_events_insert ON leads;
--> statement-breakpoint
CREATE TRIGGER leads_events_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION leads_record_events_inserted();
--> statement-breakpoint
DROP TRIGGER leads_outbound_insert ON leads;
--> statement-breakpoint
CREATE TRIGGER leads_outbound_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION leads_outbound_events_inserted();
