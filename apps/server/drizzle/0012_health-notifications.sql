CREATE TABLE "health_notification_refusals" (
	"day" date NOT NULL,
	"reason" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "health_notification_refusals_day_reason_pk" PRIMARY KEY("day","reason")
);
--> statement-breakpoint
CREATE TABLE "health_notification_work" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"study_id" uuid NOT NULL,
	"data_type" text NOT NULL,
	"day" date,
	"state" text DEFAULT 'pending' NOT NULL,
	"deleted" smallint DEFAULT 0 NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"last_notification_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "health_notification_work_key" UNIQUE NULLS NOT DISTINCT("connection_id","data_type","day")
);
--> statement-breakpoint
CREATE TABLE "health_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"body_sha256" text NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"health_user_id" text NOT NULL,
	"operation" text NOT NULL,
	"data_type" text NOT NULL,
	"intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload" jsonb NOT NULL,
	"resolved_at" timestamp with time zone,
	"connection_count" integer,
	CONSTRAINT "health_notifications_body_key" UNIQUE("body_sha256","position")
);
--> statement-breakpoint
ALTER TABLE "health_notification_work" ADD CONSTRAINT "health_notification_work_connection_id_wearable_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."wearable_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_notification_work" ADD CONSTRAINT "health_notification_work_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "health_notification_work" ADD CONSTRAINT "health_notification_work_last_notification_id_health_notifications_id_fk" FOREIGN KEY ("last_notification_id") REFERENCES "public"."health_notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "health_notification_work_pending_idx" ON "health_notification_work" USING btree ("updated_at") WHERE "health_notification_work"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "health_notifications_unresolved_idx" ON "health_notifications" USING btree ("received_at") WHERE "health_notifications"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "wearable_connections_health_user_idx" ON "wearable_connections" USING btree ("health_user_id");