ALTER TABLE "audit_events" ADD COLUMN "kind" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_events_study_kind_idx" ON "audit_events" USING btree ("study_id","kind","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_study_actor_idx" ON "audit_events" USING btree ("study_id","actor_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_platform_kind_idx" ON "audit_events" USING btree ("kind","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "audit_events"."study_id" is null;--> statement-breakpoint
-- Existing events get their kind as the contracts defined it when this was written (the trail is
-- append-only, so its trigger is lifted for this one backfill, inside the migration's transaction).
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_no_update_delete";--> statement-breakpoint
UPDATE "audit_events" SET "kind" = CASE
  WHEN "action" IN ('participants.listed', 'participant.viewed', 'participant.document_downloaded', 'participant.charts_viewed', 'participant.heart_rate_viewed', 'pending_participants.listed', 'study.members_listed', 'study.bucket_opened', 'adherence.viewed', 'email.details_viewed', 'wearable.authorizations_listed', 'wearable.status_viewed', 'bucket.listed', 'file.downloaded', 'export.download', 'extraction.jobs_listed', 'extraction.job_viewed', 'application.document_downloaded', 'applications.listed', 'researchers.listed', 'audit.viewed', 'audit.downloaded') THEN 'data_access'
  WHEN starts_with("action", 'auth.') THEN 'sign_in'
  WHEN starts_with("action", 'export.') OR starts_with("action", 'extraction.') THEN 'export'
  WHEN starts_with("action", 'access_token.') THEN 'token'
  WHEN "action" IN ('pending_participants.added', 'study.participant_message') OR starts_with("action", 'email.') THEN 'invitation'
  WHEN "action" IN ('study.created', 'study.updated', 'study.password_changed', 'study.deleted', 'study.purged', 'study.joined', 'study.member_removed') THEN 'settings'
  WHEN starts_with("action", 'consent.') THEN 'consent'
  WHEN starts_with("action", 'participant.') OR starts_with("action", 'pending_participant.') THEN 'participant'
  WHEN starts_with("action", 'wearable.') OR starts_with("action", 'dataset.') THEN 'wearable'
  WHEN starts_with("action", 'application.') THEN 'application'
  WHEN starts_with("action", 'admin.') THEN 'master'
  ELSE 'other' END;
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_no_update_delete";
