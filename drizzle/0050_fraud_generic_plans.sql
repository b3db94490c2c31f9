-- The fraud rules' statements planned once per connection, not once per call (issue 32: the
-- rules must not slow ingestion).
--
-- fraud_evaluate (0038) runs a dozen statements per call whose parameters are the call's
-- values. PostgreSQL's plan cache kept choosing a custom plan for several of them, so they were
-- planned again for every call: in psql, 7 batches of 32 calls took 13–34 ms each with the
-- default, 7–9 ms with generic plans, the same rows written and the same flags raised. The
-- generic plans are the index probes the custom ones were (by publisher and hour, by caller
-- and hour, by lead), so the function keeps them.
ALTER FUNCTION fraud_evaluate(jsonb, jsonb) SET plan_cache_mode = force_generic_plan;
