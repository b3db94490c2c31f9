-- The Fraud queue's total, kept as flags come and go (issue 32: its first page ≤ 50 ms at 1M
-- leads; issue 29: every screen's SQL ≤ 5 ms). The queue counted its open flags up to 10,001 on
-- every page: at the bench's 69,292 open flags, 10,001 rows read, 5.0 ms and 659 buffers a page.
-- Now the flags' statuses are counted by the status_counts triggers of drizzle/0048 (entity
-- 'fraud_flag'), and the unfiltered queue reads its total by primary key.
DO $do$
BEGIN
  EXECUTE 'CREATE TRIGGER fraud_flags_counts_insert AFTER INSERT ON fraud_flags REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(''fraud_flag'')';
  EXECUTE 'CREATE TRIGGER fraud_flags_counts_update AFTER UPDATE ON fraud_flags REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(''fraud_flag'')';
  EXECUTE 'CREATE TRIGGER fraud_flags_counts_delete AFTER DELETE ON fraud_flags REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(''fraud_flag'')';
  EXECUTE 'CREATE TRIGGER fraud_flags_counts_truncate AFTER TRUNCATE ON fraud_flags
    FOR EACH STATEMENT EXECUTE FUNCTION status_counts_fold(''fraud_flag'')';
END
$do$;
--> statement-breakpoint
INSERT INTO status_counts (entity, status, n)
SELECT 'fraud_flag', status, count(*) FROM fraud_flags GROUP BY 2
ON CONFLICT (entity, status) DO UPDATE SET n = excluded.n;
