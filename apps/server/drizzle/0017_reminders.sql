CREATE TABLE "adherence_digests" (
	"study_id" uuid NOT NULL,
	"day" date NOT NULL,
	"composed_at" timestamp with time zone NOT NULL,
	"recipient_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "adherence_digests_study_id_day_pk" PRIMARY KEY("study_id","day")
);
--> statement-breakpoint
CREATE TABLE "digest_participant_state" (
	"participant_id" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"at_risk_reported_at" timestamp with time zone,
	"reauthorization_reported_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "digest_preferences" (
	"study_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "digest_preferences_study_id_user_id_pk" PRIMARY KEY("study_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "reminder_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"participant_id" text NOT NULL,
	"study_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"stop_token_hash" text NOT NULL,
	CONSTRAINT "reminder_log_stop_token_key" UNIQUE("stop_token_hash")
);
--> statement-breakpoint
CREATE TABLE "reminder_stops" (
	"participant_id" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"stopped_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adherence_digests" ADD CONSTRAINT "adherence_digests_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_participant_state" ADD CONSTRAINT "digest_participant_state_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_participant_state" ADD CONSTRAINT "digest_participant_state_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_preferences" ADD CONSTRAINT "digest_preferences_member_fk" FOREIGN KEY ("study_id","user_id") REFERENCES "public"."study_members"("study_id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_log" ADD CONSTRAINT "reminder_log_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_log" ADD CONSTRAINT "reminder_log_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_stops" ADD CONSTRAINT "reminder_stops_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reminder_stops" ADD CONSTRAINT "reminder_stops_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reminder_log_participant_sent_idx" ON "reminder_log" USING btree ("participant_id","sent_at");