CREATE TABLE "dataset_day_months" (
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"month" date NOT NULL,
	"time_zone" text NOT NULL,
	"states" text NOT NULL,
	"wear_minutes" integer[] NOT NULL,
	"steps" integer[] NOT NULL,
	"reasons" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_day_months_study_id_participant_id_month_pk" PRIMARY KEY("study_id","participant_id","month")
);
--> statement-breakpoint
ALTER TABLE "dataset_partitions" ADD COLUMN "sleep_stages" jsonb;--> statement-breakpoint
ALTER TABLE "wearable_connections" ADD COLUMN "battery_level" smallint;--> statement-breakpoint
ALTER TABLE "dataset_day_months" ADD CONSTRAINT "dataset_day_months_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_day_months" ADD CONSTRAINT "dataset_day_months_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;