CREATE TABLE "report_names_parts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "report_names_parts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"n" bigint NOT NULL
);
--> statement-breakpoint
-- The names' stamp as committed parts instead of a sequence (nextval is seen at once, before its
-- writer commits): the stamp is the sum of the parts, which only grows, and a part counts only
-- once its transaction has committed. Reports keep whole answers (names included) and publisher
-- names by this stamp.
INSERT INTO report_names_parts (n) VALUES (1);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bump_report_names() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_names_parts (n) VALUES (1);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP SEQUENCE report_names_epoch;
