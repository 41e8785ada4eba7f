CREATE TABLE "extraction_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"calls_planned" integer DEFAULT 0 NOT NULL,
	"calls_done" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "extraction_quota_windows" (
	"key" text NOT NULL,
	"window_start" bigint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "extraction_quota_windows_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "extraction_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"params" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"calls_planned" integer DEFAULT 0 NOT NULL,
	"files" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "extraction_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data_type" text NOT NULL,
	"window_start" date NOT NULL,
	"window_end" date NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"calls_planned" integer DEFAULT 0 NOT NULL,
	"calls_done" integer DEFAULT 0 NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"output_keys" text[] DEFAULT '{}'::text[] NOT NULL,
	"requests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"skip_reason" text,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "extraction_jobs" ADD CONSTRAINT "extraction_jobs_run_id_extraction_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."extraction_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_jobs" ADD CONSTRAINT "extraction_jobs_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_jobs" ADD CONSTRAINT "extraction_jobs_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_runs" ADD CONSTRAINT "extraction_runs_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_runs" ADD CONSTRAINT "extraction_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_tasks" ADD CONSTRAINT "extraction_tasks_job_id_extraction_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."extraction_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extraction_tasks" ADD CONSTRAINT "extraction_tasks_run_id_extraction_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."extraction_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "extraction_jobs_run_participant_key" ON "extraction_jobs" USING btree ("run_id","participant_id");--> statement-breakpoint
CREATE INDEX "extraction_jobs_study_created_idx" ON "extraction_jobs" USING btree ("study_id","created_at");--> statement-breakpoint
CREATE INDEX "extraction_runs_study_created_idx" ON "extraction_runs" USING btree ("study_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "extraction_tasks_job_seq_key" ON "extraction_tasks" USING btree ("job_id","seq");--> statement-breakpoint
CREATE INDEX "extraction_tasks_run_idx" ON "extraction_tasks" USING btree ("run_id");