CREATE TABLE "status_counts" (
	"entity" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "status_counts_entity_status_pk" PRIMARY KEY("entity","status")
);
--> statement-breakpoint
-- What waits for the admins, counted as it changes (issue 29: every screen's SQL ≤ 5 ms at 1M
-- leads, the admin stats included). The dashboard's cards and the notification bell (polled on
-- every admin page) counted the pending applications, the pending publishers and the open
-- disputes by reading each such row: 10,000 pending applications of the bench's fill took
-- 24 ms and 10,074 buffers per read. Now each status's count is kept by a statement trigger on
-- the table (the rows a statement added and took away, grouped, one upsert per status that
-- changed, in key order; an update that moves no status writes nothing) and read by its
-- primary key. TRUNCATE (tests) empties the table's.
CREATE FUNCTION status_counts_fold() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  v_kind text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM status_counts WHERE entity = v_kind OR entity LIKE v_kind || ':%';
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO status_counts AS c (entity, status, n)
    SELECT entity, status, count(*) FROM (
      SELECT CASE WHEN v_kind = 'user' THEN 'user:' || (to_jsonb(r) ->> 'role') ELSE v_kind END,
             to_jsonb(r) ->> 'status' FROM new_rows r) x(entity, status)
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (entity, status) DO UPDATE SET n = c.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO status_counts AS c (entity, status, n)
    SELECT entity, status, -count(*) FROM (
      SELECT CASE WHEN v_kind = 'user' THEN 'user:' || (to_jsonb(r) ->> 'role') ELSE v_kind END,
             to_jsonb(r) ->> 'status' FROM old_rows r) x(entity, status)
     GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (entity, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO status_counts AS c (entity, status, n)
    SELECT entity, status, sum(d) FROM (
      SELECT CASE WHEN v_kind = 'user' THEN 'user:' || (to_jsonb(r) ->> 'role') ELSE v_kind END,
             to_jsonb(r) ->> 'status', 1 FROM new_rows r
      UNION ALL
      SELECT CASE WHEN v_kind = 'user' THEN 'user:' || (to_jsonb(r) ->> 'role') ELSE v_kind END,
             to_jsonb(r) ->> 'status', -1 FROM old_rows r) x(entity, status, d)
     GROUP BY 1, 2 HAVING sum(d) <> 0 ORDER BY 1, 2
    ON CONFLICT (entity, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END
$fn$;
--> statement-breakpoint
-- The same four triggers on each counted table.
DO $do$
DECLARE
  t record;
BEGIN
  FOR t IN SELECT * FROM (VALUES ('offer_applications', 'application'), ('lead_disputes', 'dispute'),
                                 ('users', 'user')) v(tbl, kind) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(%L)', t.tbl || '_counts_insert', t.tbl, t.kind);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(%L)', t.tbl || '_counts_update', t.tbl, t.kind);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(%L)', t.tbl || '_counts_delete', t.tbl, t.kind);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
      FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(%L)', t.tbl || '_counts_truncate', t.tbl, t.kind);
  END LOOP;
END
$do$;
--> statement-breakpoint
INSERT INTO status_counts (entity, status, n)
SELECT 'application', status, count(*) FROM offer_applications GROUP BY 2
UNION ALL
SELECT 'dispute', status, count(*) FROM lead_disputes GROUP BY 2
UNION ALL
SELECT 'user:' || role, status, count(*) FROM users GROUP BY role, status;
