-- The batch functions' temporary tables keep their rows across commits (issue 26's ingestion
-- row). They were ON COMMIT DELETE ROWS, and PostgreSQL truncates every such table of a session
-- at each commit of a transaction that touched any temporary table: a file truncation per table
-- and commit, which a pooled connection that once ran ingest_calls and fraud_evaluate paid on
-- each of their batches (three tables). In pgbench, a 20-call ingest_calls batch at 1M leads:
-- 16.3–17.5 ms before, 14.4–15.1 ms after (bench/ingest-temp-2026-11-28.md). Each consumer
-- already deletes what it read (fold_lead_batch, settle_lead_bills; fraud_evaluate before its
-- batch). A deleted row keeps its line pointer until a vacuum, which never comes to a temporary
-- table, so batch_rows_trim truncates a table once its dead rows pass 512 kB (64 pages, every
-- few hundred batches).
CREATE FUNCTION batch_rows_trim(p_table regclass) RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF pg_relation_size(p_table) > 524288 THEN
    EXECUTE format('TRUNCATE %s', p_table);
  END IF;
END $fn$;
--> statement-breakpoint
-- The two functions as 0046 (ingest_calls) and 0054 (fraud_evaluate) wrote them, with only these
-- lines changed: each CREATE TEMP TABLE loses ON COMMIT DELETE ROWS, and each table is trimmed
-- before the batch uses it. Every change must be found exactly once, or the migration fails.
DO $do$
DECLARE
  src text;
  p record;
BEGIN
  FOR p IN SELECT * FROM (VALUES
    ('ingest_calls(jsonb)', ' ON COMMIT DELETE ROWS AS', ' AS'),
    ('ingest_calls(jsonb)', E'    ) ON COMMIT DELETE ROWS;\n', E'    );\n'),
    ('ingest_calls(jsonb)', E'  PERFORM set_config(''portal.fold_deferred'', ''on'', true);\n',
     E'  PERFORM batch_rows_trim(''pg_temp.lead_fold_rows'');\n'
     || E'  PERFORM batch_rows_trim(''pg_temp.lead_bill_rows'');\n'
     || E'  PERFORM set_config(''portal.fold_deferred'', ''on'', true);\n'),
    ('fraud_evaluate(jsonb,jsonb)', E'    ) ON COMMIT DELETE ROWS;\n  END IF;\n  DELETE FROM fraud_eval_rows;\n',
     E'    );\n  END IF;\n  PERFORM batch_rows_trim(''pg_temp.fraud_eval_rows'');\n  DELETE FROM fraud_eval_rows;\n')
  ) AS c(fn, old, new) LOOP
    src := pg_get_functiondef(p.fn::regprocedure);
    IF array_length(string_to_array(src, p.old), 1) <> 2 THEN
      RAISE EXCEPTION '0055: % does not hold exactly one "%"', p.fn, p.old;
    END IF;
    EXECUTE replace(src, p.old, p.new);
  END LOOP;
END
$do$;
