CREATE TABLE "network_balance_parts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "network_balance_parts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"earned" numeric DEFAULT '0' NOT NULL,
	"adjustments" numeric DEFAULT '0' NOT NULL,
	"recorded" numeric DEFAULT '0' NOT NULL,
	"paid" numeric DEFAULT '0' NOT NULL
);
--> statement-breakpoint
-- The network's balance kept as parts (issue 29: the admin stats' SQL ≤ 5 ms at 1M leads, and
-- at 100k publishers): the dashboard summed every publisher_balances row on each request (10k
-- rows at the bench's size). Each statement that writes publisher_balances (the lead fold, the
-- payout and adjustment triggers, rebuild_balances, a user's deletion) appends one row with what
-- it added and took away; appending takes no lock another writer waits on, unlike a kept total
-- row every approved call would update. The `network-balance-fold` job (server/modules/money)
-- folds the parts into one now and then; the dashboard sums the few there are.
CREATE FUNCTION network_balance_fold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM network_balance_parts;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO network_balance_parts (earned, adjustments, recorded, paid)
    SELECT sum(earned), sum(adjustments), sum(recorded), sum(paid) FROM new_rows
    HAVING sum(earned) <> 0 OR sum(adjustments) <> 0 OR sum(recorded) <> 0 OR sum(paid) <> 0;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO network_balance_parts (earned, adjustments, recorded, paid)
    SELECT -sum(earned), -sum(adjustments), -sum(recorded), -sum(paid) FROM old_rows
    HAVING sum(earned) <> 0 OR sum(adjustments) <> 0 OR sum(recorded) <> 0 OR sum(paid) <> 0;
  ELSE
    INSERT INTO network_balance_parts (earned, adjustments, recorded, paid)
    SELECT sum(e), sum(a), sum(r), sum(p) FROM (
      SELECT earned AS e, adjustments AS a, recorded AS r, paid AS p FROM new_rows
      UNION ALL SELECT -earned, -adjustments, -recorded, -paid FROM old_rows
    ) d
    HAVING sum(e) <> 0 OR sum(a) <> 0 OR sum(r) <> 0 OR sum(p) <> 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- One statement trigger per event (a trigger with transition tables has one event), and one for
-- TRUNCATE.
DO $$
DECLARE
  ev text;
BEGIN
  FOREACH ev IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE'] LOOP
    EXECUTE format(
      'CREATE TRIGGER publisher_balances_network_%s AFTER %s ON publisher_balances REFERENCING %s '
      'FOR EACH STATEMENT EXECUTE FUNCTION network_balance_fold()',
      lower(ev), ev,
      CASE ev WHEN 'INSERT' THEN 'NEW TABLE AS new_rows' WHEN 'DELETE' THEN 'OLD TABLE AS old_rows'
              ELSE 'OLD TABLE AS old_rows NEW TABLE AS new_rows' END);
  END LOOP;
  CREATE TRIGGER publisher_balances_network_truncate AFTER TRUNCATE ON publisher_balances
    FOR EACH STATEMENT EXECUTE FUNCTION network_balance_fold();
END
$$;
--> statement-breakpoint
-- What the publishers' rows hold now, as the first part.
INSERT INTO network_balance_parts (earned, adjustments, recorded, paid)
SELECT sum(earned), sum(adjustments), sum(recorded), sum(paid) FROM publisher_balances
HAVING count(*) > 0;
