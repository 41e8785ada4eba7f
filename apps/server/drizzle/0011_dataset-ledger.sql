CREATE TABLE "dataset_partitions" (
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"data_type" text NOT NULL,
	"date" date NOT NULL,
	"time_zone" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"version" text,
	"row_count" integer DEFAULT 0 NOT NULL,
	"rows_file" jsonb,
	"raw_files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fetched_at" timestamp with time zone,
	"trigger" jsonb,
	"steps" integer,
	"wear_minutes" integer,
	"resting_heart_rate_bpm" real,
	"sleep_minutes" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dataset_partitions_study_id_participant_id_data_type_date_pk" PRIMARY KEY("study_id","participant_id","data_type","date")
);
--> statement-breakpoint
ALTER TABLE "dataset_partitions" ADD CONSTRAINT "dataset_partitions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dataset_partitions" ADD CONSTRAINT "dataset_partitions_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dataset_partitions_study_date_idx" ON "dataset_partitions" USING btree ("study_id","date");