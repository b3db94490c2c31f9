CREATE TABLE "payout_hold_parts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payout_hold_parts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"mask" smallint NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_hold_states" (
	"publisher_id" uuid PRIMARY KEY NOT NULL,
	"mask" smallint
);
--> statement-breakpoint
-- The dashboard's held payouts kept as they change (issue 29: the admin stats' SQL ≤ 5 ms in the
-- database at 1M leads and at 100k publishers). The count joined every publisher owed money with
-- their user, payment details and hold on each request (698 buffers at 1,628 owed of 10k
-- publishers). Now the conditions a publisher meets are kept in payout_hold_states (one bit per
-- condition of contract/money.ts payoutHoldConditions, in its order; null when the publisher is
-- owed nothing or released), and each change appends its −1/+1 to payout_hold_parts. The
-- dashboard sums the parts whose mask meets an enabled condition: at most sixteen rows once the
-- `payout-holds-fold` job (server/modules/money) has folded them.
CREATE FUNCTION payout_hold_mask(status text, tax_form_status text, method text, account text, under_review boolean)
RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE WHEN coalesce(tax_form_status, 'not_submitted') <> 'approved' THEN 1 ELSE 0 END
        | CASE WHEN coalesce(method, '') = '' OR coalesce(account, '') = '' THEN 2 ELSE 0 END
        -- contract/roles.ts approvedPublisherStatuses
        | CASE WHEN status <> ALL ('{approved,active}'::text[]) THEN 4 ELSE 0 END
        | CASE WHEN coalesce(under_review, false) THEN 8 ELSE 0 END)::smallint
$$;
--> statement-breakpoint
-- Judges these publishers again from what the tables hold now and appends the difference. Their
-- state rows are locked first, in order: a second writer judging the same publisher waits, and
-- its next statement sees what the first committed (READ COMMITTED), so the last judgement
-- stands on everything before it. Row locks, not advisory ones: a payout run over 100k publishers
-- would overflow the lock table.
CREATE FUNCTION payout_hold_refresh(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO payout_hold_states (publisher_id)
  SELECT DISTINCT id FROM unnest(ids) AS t(id) WHERE id IS NOT NULL ORDER BY 1
  ON CONFLICT (publisher_id) DO NOTHING;
  PERFORM 1 FROM payout_hold_states WHERE publisher_id = ANY (ids) ORDER BY publisher_id FOR UPDATE;
  WITH held AS (
    SELECT b.publisher_id,
           payout_hold_mask(u.status, d.tax_form_status, d.method, d.account, h.under_review) AS mask
    FROM publisher_balances b
    JOIN users u ON u.id = b.publisher_id
    LEFT JOIN payment_details d ON d.publisher_id = b.publisher_id
    LEFT JOIN payout_holds h ON h.publisher_id = b.publisher_id
    WHERE b.publisher_id = ANY (ids) AND b.owed > 0
      AND NOT coalesce(h.released_at IS NOT NULL AND h.release_note <> '', false)
  ), changed AS (
    SELECT s.publisher_id, s.mask AS was, held.mask AS now
    FROM payout_hold_states s LEFT JOIN held ON held.publisher_id = s.publisher_id
    WHERE s.publisher_id = ANY (ids) AND s.mask IS DISTINCT FROM held.mask
  ), kept AS (
    UPDATE payout_hold_states s SET mask = changed.now FROM changed
    WHERE s.publisher_id = changed.publisher_id
  )
  INSERT INTO payout_hold_parts (mask, n)
  SELECT mask, sum(n) FROM (
    SELECT was AS mask, -1 AS n FROM changed WHERE was IS NOT NULL
    UNION ALL SELECT now, 1 FROM changed WHERE now IS NOT NULL
  ) d
  GROUP BY mask HAVING sum(n) <> 0;
END
$$;
--> statement-breakpoint
-- publisher_balances: only the publishers whose balance started or stopped being owed (rare on
-- the ingestion path: the first approved call after a run).
CREATE FUNCTION payout_hold_balances() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    SELECT array_agg(publisher_id) INTO ids FROM payout_hold_states WHERE mask IS NOT NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(publisher_id) INTO ids FROM new_rows WHERE owed > 0;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(publisher_id) INTO ids FROM old_rows WHERE owed > 0;
  ELSE
    SELECT array_agg(n.publisher_id) INTO ids
    FROM new_rows n JOIN old_rows o ON o.publisher_id = n.publisher_id
    WHERE (n.owed > 0) <> (o.owed > 0);
  END IF;
  PERFORM payout_hold_refresh(ids) WHERE ids IS NOT NULL;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER publisher_balances_holds_truncate AFTER TRUNCATE ON publisher_balances
  FOR EACH STATEMENT EXECUTE FUNCTION payout_hold_balances();
--> statement-breakpoint
-- A trigger with transition tables has one event: the others one per event,
-- from one template.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('insert', 'NEW TABLE AS new_rows'),
                                 ('update', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'),
                                 ('delete', 'OLD TABLE AS old_rows')) AS v(ev, tables) LOOP
    EXECUTE format('CREATE TRIGGER publisher_balances_holds_%s AFTER %s ON publisher_balances '
                   'REFERENCING %s FOR EACH STATEMENT EXECUTE FUNCTION payout_hold_balances()',
                   t.ev, upper(t.ev), t.tables);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The other sources of a judgement change a row at a time (an admin's or a publisher's edit, a
-- run's used-up releases).
CREATE FUNCTION payout_hold_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The trigger's argument names the row's publisher column (users: id; the others:
  -- publisher_id); on DELETE the row is OLD.
  PERFORM payout_hold_refresh(ARRAY[(to_jsonb(coalesce(NEW, OLD)) ->> TG_ARGV[0])::uuid]);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_payout_hold AFTER UPDATE OF status ON users FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.role = 'publisher')
  EXECUTE FUNCTION payout_hold_source('id');
--> statement-breakpoint
CREATE TRIGGER payment_details_payout_hold
  AFTER INSERT OR DELETE OR UPDATE OF method, account, tax_form_status ON payment_details
  FOR EACH ROW EXECUTE FUNCTION payout_hold_source('publisher_id');
--> statement-breakpoint
CREATE TRIGGER payout_holds_payout_hold
  AFTER INSERT OR DELETE OR UPDATE OF under_review, release_note, released_at ON payout_holds
  FOR EACH ROW EXECUTE FUNCTION payout_hold_source('publisher_id');
--> statement-breakpoint
-- What the tables hold now: every publisher owed money, judged once.
SELECT payout_hold_refresh(array_agg(publisher_id)) FROM publisher_balances WHERE owed > 0;
