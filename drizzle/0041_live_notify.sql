-- Hand-written (issue 32, live updates): the lead timeline (lead_events, drizzle/0013: a row per
-- tracker call's creation and per change of its event, status, duration, payout or reason,
-- whoever writes the lead) is the live stream's log: its id is the stream's event id, and a
-- reconnect resumes from it. A statement that wrote timeline rows tells every instance at its
-- commit (NOTIFY live_events); PostgreSQL folds a transaction's equal notifications into one,
-- so a micro-batch of calls (one transaction) wakes each instance once.
-- One function for every "rows were written: wake the listeners" trigger, the channel its
-- argument (the outbound events' trigger of drizzle/0036 moves to it too).
CREATE FUNCTION notify_written_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM written_rows) THEN
    PERFORM pg_notify(TG_ARGV[0], '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER live_events_notify AFTER INSERT ON lead_events
  REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT
  EXECUTE FUNCTION notify_written_rows('live_events');
--> statement-breakpoint
DROP TRIGGER outbound_events_notify ON outbound_events;
--> statement-breakpoint
CREATE TRIGGER outbound_events_notify AFTER INSERT ON outbound_events
  REFERENCING NEW TABLE AS written_rows FOR EACH STATEMENT
  EXECUTE FUNCTION notify_written_rows('outbound_events');
--> statement-breakpoint
DROP FUNCTION outbound_events_notify();
