ALTER TABLE "audit_events" ADD COLUMN "study_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_events_study_idx" ON "audit_events" USING btree ("study_id","created_at");--> statement-breakpoint
-- Existing events get their study from what they name: the study itself, or a participant, export or token of it.
UPDATE "audit_events" SET "study_id" = "target_id"::uuid
  WHERE "target_type" = 'study' AND "target_id" ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';--> statement-breakpoint
UPDATE "audit_events" a SET "study_id" = p."study_id" FROM "participants" p
  WHERE a."target_type" = 'participant' AND a."target_id" = p."id"::text;--> statement-breakpoint
UPDATE "audit_events" a SET "study_id" = e."study_id" FROM "exports" e
  WHERE a."target_type" = 'export' AND a."target_id" = e."id"::text;--> statement-breakpoint
UPDATE "audit_events" a SET "study_id" = t."study_id" FROM "access_tokens" t
  WHERE a."target_type" = 'access_token' AND a."target_id" = t."id"::text;
