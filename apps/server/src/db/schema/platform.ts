import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Mail and SMS waiting for or past delivery. The job queue carries only the id; the content
 * (addresses, links with tokens) is stored encrypted so a database dump does not leak it.
 */
export const outboundMessages = pgTable(
  'outbound_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    purpose: text('purpose').notNull(),
    payloadEncrypted: text('payload_encrypted').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    providerId: text('provider_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbound_messages_status_idx').on(t.status, t.createdAt)],
);

/** Who did what, when: every administrative and study mutation writes one row. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: text('actor_id'),
    /** The study the event belongs to, for the study's trail (no foreign key: the trail outlives a purged study). */
    studyId: uuid('study_id'),
    action: text('action').notNull(),
    /** The trail's kind of the action (contracts' auditKindOf), kept so a kind filter reads an index. */
    kind: text('kind').notNull().default('other'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('audit_events_target_idx').on(t.targetType, t.targetId),
    index('audit_events_created_idx').on(t.createdAt),
    // The trails page newest first on (created_at, id): a study's by its id, the platform's
    // (events of no study) and its members' sign-ins by actor.
    index('audit_events_study_idx').on(t.studyId, t.createdAt.desc(), t.id.desc()),
    index('audit_events_platform_idx')
      .on(t.createdAt.desc(), t.id.desc())
      .where(sql`${t.studyId} is null`),
    index('audit_events_actor_idx')
      .on(t.actorId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.studyId} is null`),
    // A filter by kind or by person reads only its own rows, however rare they are in the trail.
    index('audit_events_study_kind_idx').on(t.studyId, t.kind, t.createdAt.desc(), t.id.desc()),
    index('audit_events_study_actor_idx').on(t.studyId, t.actorId, t.createdAt.desc(), t.id.desc()),
    index('audit_events_platform_kind_idx')
      .on(t.kind, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.studyId} is null`),
    // A study's trail shows its members' sign-ins, newest first per member.
    index('audit_events_sign_in_idx')
      .on(t.actorId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.studyId} is null and ${t.kind} = 'sign_in'`),
  ],
);

/**
 * Counters that limit mail a caller can make us send: messages to a study's owner, and
 * invitations per (study, recipient) and per identical content. One row per key, bumped with
 * `insert … on conflict do update … returning`, so parallel requests each get their own count.
 * Each scope has its own window length; a window older than that starts over.
 */
export const sendCounters = pgTable(
  'send_counters',
  {
    scope: text('scope', {
      enum: ['notify_study', 'notify_sender', 'invitation_recipient', 'invitation_content'],
    }).notNull(),
    /** SHA-256 of the key (study id, address, content), so the table holds no personal data. */
    keyHash: text('key_hash').notNull(),
    count: integer('count').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.keyHash] }),
    index('send_counters_window_idx').on(t.windowStartedAt),
  ],
);
