-- The tracker tags reports group by as sub-ids (issue 34): element i is sub i+1's tag, '' when unset.
ALTER TABLE "settings" ADD COLUMN "report_sub_id_tags" text[] DEFAULT '{}'::text[] NOT NULL;