-- Hand-written (issue 30, speed): a statement that writes outbound events tells the delivery
-- engines at its commit (NOTIFY outbound_events), so they wake then instead of at their next
-- poll. One notification per statement that wrote rows (the transition table is looked at, so
-- the leads trigger's INSERT … SELECT that wrote nothing, no one listening, notifies nothing);
-- PostgreSQL folds a transaction's equal notifications into one.
CREATE FUNCTION outbound_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_events) THEN
    PERFORM pg_notify('outbound_events', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER outbound_events_notify AFTER INSERT ON outbound_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION outbound_events_notify();
