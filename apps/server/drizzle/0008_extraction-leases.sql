ALTER TABLE "extraction_jobs" ADD COLUMN "lease_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "extraction_jobs" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "extraction_runs" ADD COLUMN "finalizing_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "extraction_tasks" ADD COLUMN "part_key" text;