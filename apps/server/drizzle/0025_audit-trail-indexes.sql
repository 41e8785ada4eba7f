DROP INDEX "audit_events_study_idx";--> statement-breakpoint
CREATE INDEX "audit_events_platform_idx" ON "audit_events" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit_events"."study_id" is null;--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("actor_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit_events"."study_id" is null;--> statement-breakpoint
CREATE INDEX "audit_events_study_idx" ON "audit_events" USING btree ("study_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);