-- settle_lead_bills (0049) planned four of its statements again for every batch of calls (issue
-- 26's ingestion row): each filters campaigns by `= ANY (v_campaigns)`, and PostgreSQL's plan
-- cache kept choosing a custom plan for the array it was given. The generic plans are the same
-- probes (campaigns by primary key, the batch's rows from its temporary table), so they are kept
-- once per connection. In psql at 1M leads, batches of 17 new calls with a campaign each:
-- settle_lead_bills 113 → 57 µs a call, ingest_calls 0.56–0.62 → 0.49 ms a call
-- (bench/ingest-plans-2026-11-29.md).
ALTER FUNCTION settle_lead_bills() SET plan_cache_mode = force_generic_plan;
