ALTER TABLE "consent_withdrawals" ADD COLUMN "carried_out_at" timestamp with time zone;--> statement-breakpoint
-- Withdrawals recorded before this column were carried out in the request that recorded them.
UPDATE "consent_withdrawals" SET "carried_out_at" = "withdrawn_at";
