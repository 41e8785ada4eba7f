CREATE TABLE "send_counters" (
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "send_counters_scope_key_hash_pk" PRIMARY KEY("scope","key_hash")
);
--> statement-breakpoint
CREATE INDEX "send_counters_window_idx" ON "send_counters" USING btree ("window_started_at");