-- Reports sorted by name keep the order of a dimension's names in memory (server/db/reports.ts);
-- this sequence moves whenever a name may have changed (a publisher's name or e-mail, an offer's
-- title, a row added or removed), so a kept order is checked with one read of its last value.
CREATE SEQUENCE report_names_epoch;
--> statement-breakpoint
CREATE FUNCTION bump_report_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('report_names_epoch');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_report_names AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF name, email ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_report_names();
--> statement-breakpoint
CREATE TRIGGER offers_report_names AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF title ON offers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_report_names();
