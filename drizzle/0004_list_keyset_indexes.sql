DROP INDEX "audit_log_created_idx";--> statement-breakpoint
DROP INDEX "campaigns_buyer_created_idx";--> statement-breakpoint
DROP INDEX "campaigns_created_idx";--> statement-breakpoint
DROP INDEX "compliance_created_idx";--> statement-breakpoint
DROP INDEX "leads_publisher_ts_idx";--> statement-breakpoint
DROP INDEX "leads_ts_idx";--> statement-breakpoint
DROP INDEX "leads_offer_ts_idx";--> statement-breakpoint
DROP INDEX "leads_status_ts_idx";--> statement-breakpoint
DROP INDEX "offer_applications_status_created_idx";--> statement-breakpoint
DROP INDEX "payouts_publisher_date_idx";--> statement-breakpoint
DROP INDEX "payouts_date_idx";--> statement-breakpoint
DROP INDEX "users_role_created_idx";--> statement-breakpoint
CREATE INDEX "audit_log_created_id_idx" ON "audit_log" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "campaigns_buyer_created_id_idx" ON "campaigns" USING btree ("buyer_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "campaigns_created_id_idx" ON "campaigns" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "compliance_created_id_idx" ON "compliance_questionnaires" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_ts_id_idx" ON "leads" USING btree ("timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_publisher_ts_id_idx" ON "leads" USING btree ("publisher_id","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_offer_ts_id_idx" ON "leads" USING btree ("offer_id","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_status_ts_id_idx" ON "leads" USING btree ("status","timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_payout_id_idx" ON "leads" USING btree ("payout" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_duration_id_idx" ON "leads" USING btree ("call_duration" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "leads_publisher_status_id_idx" ON "leads" USING btree ("publisher_id","status","id");--> statement-breakpoint
CREATE INDEX "offer_applications_status_created_id_idx" ON "offer_applications" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "offer_applications_created_id_idx" ON "offer_applications" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"status");--> statement-breakpoint
CREATE INDEX "payouts_publisher_date_id_idx" ON "payouts" USING btree ("publisher_id","date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "payouts_date_id_idx" ON "payouts" USING btree ("date" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_role_created_id_idx" ON "users" USING btree ("role","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "users_role_sort_name_idx" ON "users" USING btree ("role",lower(coalesce("name", "email")),"id");