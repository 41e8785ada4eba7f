ALTER TABLE "email_messages" ADD COLUMN "queued_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "sent_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_messages" ADD COLUMN "failed_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Delivery counts per mailing, kept by the database so no writer can forget them. A recipient
-- counts under its outbound row's status; a recipient without one (purged) counts as sent.
-- Recipients are only inserted, and go only with their mailing (cascade), so three events move
-- the counts: a recipient is added, an outbound row changes status, an outbound row is deleted.
CREATE FUNCTION "email_counts_on_recipients_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One statement per insert batch (1,000 rows), not one update per recipient.
  UPDATE "email_messages" m
     SET "queued_count" = m."queued_count" + c.queued,
         "sent_count" = m."sent_count" + c.sent,
         "failed_count" = m."failed_count" + c.failed
    FROM (
      SELECT r."message_id",
             count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'queued') AS queued,
             count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'sent') AS sent,
             count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'failed') AS failed
        FROM added r
        LEFT JOIN "outbound_messages" o ON o."id" = r."outbound_message_id"
       GROUP BY r."message_id"
    ) c
   WHERE m."id" = c."message_id";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "email_recipients_counts_insert"
  AFTER INSERT ON "email_recipients"
  REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "email_counts_on_recipients_insert"();
--> statement-breakpoint
-- Moves an outbound row's recipients from one status to another in their mailings' counts.
CREATE FUNCTION "email_counts_move"(outbound uuid, old_status text, new_status text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "email_messages" m
     SET "queued_count" = m."queued_count"
           + c.n * ((new_status = 'queued')::int - (old_status = 'queued')::int),
         "sent_count" = m."sent_count"
           + c.n * ((new_status = 'sent')::int - (old_status = 'sent')::int),
         "failed_count" = m."failed_count"
           + c.n * ((new_status = 'failed')::int - (old_status = 'failed')::int)
    FROM (
      SELECT "message_id", count(*) AS n FROM "email_recipients"
       WHERE "outbound_message_id" = outbound GROUP BY "message_id"
    ) c
   WHERE m."id" = c."message_id";
END
$$;
--> statement-breakpoint
CREATE FUNCTION "email_counts_on_outbound_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- Once the row is gone its recipients count as sent.
    PERFORM "email_counts_move"(OLD."id", OLD."status", 'sent');
    RETURN OLD;
  END IF;
  PERFORM "email_counts_move"(NEW."id", OLD."status", NEW."status");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "outbound_messages_counts_status"
  AFTER UPDATE OF "status" ON "outbound_messages"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status")
  EXECUTE FUNCTION "email_counts_on_outbound_change"();
--> statement-breakpoint
-- BEFORE, not AFTER: the foreign key's ON DELETE SET NULL runs as an AFTER trigger and may clear
-- email_recipients.outbound_message_id first, leaving nothing to find the recipients by.
CREATE TRIGGER "outbound_messages_counts_delete"
  BEFORE DELETE ON "outbound_messages"
  FOR EACH ROW WHEN (OLD."status" <> 'sent')
  EXECUTE FUNCTION "email_counts_on_outbound_change"();
--> statement-breakpoint
-- Existing mailings: counts as the history computed them until now.
UPDATE "email_messages" m
   SET "queued_count" = c.queued, "sent_count" = c.sent, "failed_count" = c.failed
  FROM (
    SELECT r."message_id",
           count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'queued') AS queued,
           count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'sent') AS sent,
           count(*) FILTER (WHERE coalesce(o."status", 'sent') = 'failed') AS failed
      FROM "email_recipients" r
      LEFT JOIN "outbound_messages" o ON o."id" = r."outbound_message_id"
     GROUP BY r."message_id"
  ) c
 WHERE m."id" = c."message_id";
