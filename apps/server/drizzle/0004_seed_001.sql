CREATE TABLE "sign_in_attempts" (
	"scope" text NOT NULL,
	"key_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_attempts_scope_key_hash_pk" PRIMARY KEY("scope","key_hash")
);
--> statement-breakpoint
CREATE TABLE "email_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"recipient_count" integer NOT NULL,
	"sent_by" uuid,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_recipients" (
	"message_id" uuid NOT NULL,
	"address" text NOT NULL,
	"outbound_message_id" uuid,
	CONSTRAINT "email_recipients_message_id_address_pk" PRIMARY KEY("message_id","address")
);
--> statement-breakpoint
CREATE TABLE "participant_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participant_verifications" (
	"study_id" uuid NOT NULL,
	"email" text NOT NULL,
	"participant_id" text NOT NULL,
	"email_verified_at" timestamp with time zone,
	"phone_verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "participant_verifications_study_id_email_pk" PRIMARY KEY("study_id","email"),
	CONSTRAINT "participant_verifications_participant_key" UNIQUE("participant_id")
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"channel" text NOT NULL,
	"destination_hash" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"resend_after" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "participant_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"participant_id" text NOT NULL,
	"study_id" uuid NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"object_key" text NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_participants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"email" text NOT NULL,
	"phone_number" text,
	"first_name" text,
	"last_name" text,
	"status" text DEFAULT 'pre-enrolled' NOT NULL,
	"participant_id" text,
	"invited_by" uuid,
	"invited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wearable_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"participant_id" text NOT NULL,
	"study_id" uuid NOT NULL,
	"provider" text DEFAULT 'google-health' NOT NULL,
	"health_user_id" text NOT NULL,
	"legacy_user_id" text,
	"granted_scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"access_token_encrypted" text,
	"refresh_token_encrypted" text,
	"access_expires_at" timestamp with time zone,
	"refresh_expires_at" timestamp with time zone,
	"status" text DEFAULT 'active' NOT NULL,
	"connected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_reauth_mail_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "wearable_oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"study_id" uuid NOT NULL,
	"participant_id" text NOT NULL,
	"verifier_encrypted" text NOT NULL,
	"redirect_kind" text NOT NULL,
	"client_binding_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "additional_info" text;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "information_completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "authorized_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "invited_by" uuid;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "pending_participant_id" uuid;--> statement-breakpoint
ALTER TABLE "participants" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_messages" ADD CONSTRAINT "email_messages_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_recipients" ADD CONSTRAINT "email_recipients_message_id_email_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."email_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_recipients" ADD CONSTRAINT "email_recipients_outbound_message_id_outbound_messages_id_fk" FOREIGN KEY ("outbound_message_id") REFERENCES "public"."outbound_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_sessions" ADD CONSTRAINT "participant_sessions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_sessions" ADD CONSTRAINT "participant_sessions_participant_id_participant_verifications_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant_verifications"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_verifications" ADD CONSTRAINT "participant_verifications_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_participant_id_participant_verifications_participant_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participant_verifications"("participant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_documents" ADD CONSTRAINT "participant_documents_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participant_documents" ADD CONSTRAINT "participant_documents_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_participants" ADD CONSTRAINT "pending_participants_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_participants" ADD CONSTRAINT "pending_participants_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_participants" ADD CONSTRAINT "pending_participants_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_connections" ADD CONSTRAINT "wearable_connections_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_connections" ADD CONSTRAINT "wearable_connections_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_oauth_states" ADD CONSTRAINT "wearable_oauth_states_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wearable_oauth_states" ADD CONSTRAINT "wearable_oauth_states_participant_id_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_attempts_window_idx" ON "sign_in_attempts" USING btree ("window_started_at");--> statement-breakpoint
CREATE INDEX "email_messages_study_sent_idx" ON "email_messages" USING btree ("study_id","sent_at");--> statement-breakpoint
CREATE INDEX "email_recipients_outbound_idx" ON "email_recipients" USING btree ("outbound_message_id");--> statement-breakpoint
CREATE INDEX "participant_sessions_participant_idx" ON "participant_sessions" USING btree ("participant_id");--> statement-breakpoint
CREATE INDEX "participant_sessions_expires_idx" ON "participant_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "verification_codes_subject_idx" ON "verification_codes" USING btree ("participant_id","channel","created_at");--> statement-breakpoint
CREATE INDEX "verification_codes_destination_idx" ON "verification_codes" USING btree ("destination_hash","created_at");--> statement-breakpoint
CREATE INDEX "participant_documents_participant_idx" ON "participant_documents" USING btree ("participant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_participants_study_email_key" ON "pending_participants" USING btree ("study_id",lower("email"));--> statement-breakpoint
CREATE INDEX "pending_participants_study_created_idx" ON "pending_participants" USING btree ("study_id","created_at");--> statement-breakpoint
CREATE INDEX "pending_participants_study_waiting_idx" ON "pending_participants" USING btree ("study_id","created_at","id") WHERE participant_id is null;--> statement-breakpoint
CREATE UNIQUE INDEX "wearable_connections_participant_provider_key" ON "wearable_connections" USING btree ("participant_id","provider");--> statement-breakpoint
CREATE INDEX "wearable_connections_study_idx" ON "wearable_connections" USING btree ("study_id");--> statement-breakpoint
CREATE INDEX "wearable_oauth_states_expires_idx" ON "wearable_oauth_states" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_pending_participant_id_pending_participants_id_fk" FOREIGN KEY ("pending_participant_id") REFERENCES "public"."pending_participants"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_failures_created_idx" ON "auth_failures" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "one_time_tokens_expires_idx" ON "one_time_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "participants_study_enrolled_idx" ON "participants" USING btree ("study_id","enrolled_at","id") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "participants_study_name_idx" ON "participants" USING btree ("study_id",lower("last_name"),lower("first_name"),"id") WHERE deleted_at is null;