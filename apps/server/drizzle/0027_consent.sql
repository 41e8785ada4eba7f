CREATE TABLE "consent_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"version_id" uuid NOT NULL,
	"version_number" integer NOT NULL,
	"sha256" text NOT NULL,
	"full_name" text NOT NULL,
	"statements" jsonb NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"record_object_key" text NOT NULL,
	"record_sha256" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consent_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"number" integer,
	"kind" text NOT NULL,
	"markdown" text,
	"pdf_object_key" text,
	"pdf_name" text,
	"statements" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"reconsent_required" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "consent_withdrawals" (
	"participant_id" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"withdrawn_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_by" text NOT NULL,
	"actor_id" uuid,
	"data_action" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_signatures" ADD CONSTRAINT "consent_signatures_version_id_consent_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."consent_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_versions" ADD CONSTRAINT "consent_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_withdrawals" ADD CONSTRAINT "consent_withdrawals_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consent_withdrawals" ADD CONSTRAINT "consent_withdrawals_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consent_signatures_participant_idx" ON "consent_signatures" USING btree ("participant_id","version_number");--> statement-breakpoint
CREATE INDEX "consent_signatures_study_idx" ON "consent_signatures" USING btree ("study_id","signed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_versions_study_number_key" ON "consent_versions" USING btree ("study_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_versions_study_draft_key" ON "consent_versions" USING btree ("study_id") WHERE number is null;--> statement-breakpoint
CREATE INDEX "consent_withdrawals_study_idx" ON "consent_withdrawals" USING btree ("study_id");--> statement-breakpoint
-- Consent settings for studies created before them: consent is not required (a running study is
-- not suddenly held back) and a withdrawal keeps the data collected. New studies require consent.
UPDATE "studies" SET "settings" = '{"consentRequired": false, "withdrawalData": "keep"}'::jsonb || "settings"
  WHERE NOT ("settings" ? 'consentRequired');
