import { NOTIFICATION_REFUSALS, type NotificationRefusal } from '@research/contracts';
import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { studies } from './studies.js';
import { wearableConnections } from './wearables.js';

/**
 * Google Health change notifications as received, after their signature was checked. The body
 * is hashed (SHA-256) and each notification in it keeps its position, so a body Google sends
 * again (it retries until it gets a 204) is stored once. Metadata only: no health values.
 */
export const healthNotifications = pgTable(
  'health_notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bodySha256: text('body_sha256').notNull(),
    /** 0 for a body holding one notification; its index when the body is a JSON array. */
    position: smallint('position').notNull().default(0),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    healthUserId: text('health_user_id').notNull(),
    operation: text('operation', { enum: ['UPSERT', 'DELETE'] }).notNull(),
    /** kebab-case, as in the API's paths (`heart-rate`). */
    dataType: text('data_type').notNull(),
    intervals: jsonb('intervals').notNull().default(sql`'[]'::jsonb`),
    payload: jsonb('payload').notNull(),
    /** Set once its work items are stored (by the job, in the same transaction). */
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Connections the notification's account mapped to when it was resolved (0: nobody here). */
    connectionCount: integer('connection_count'),
  },
  (t) => [
    unique('health_notifications_body_key').on(t.bodySha256, t.position),
    index('health_notifications_unresolved_idx')
      .on(t.receivedAt)
      .where(sql`${t.resolvedAt} is null`),
    // The master's dashboard: the last one received, and those of the last 24 hours.
    index('health_notifications_received_idx').on(t.receivedAt),
  ],
);

export const NOTIFICATION_WORK_STATES = ['pending', 'processing', 'done', 'failed'] as const;
export type NotificationWorkState = (typeof NOTIFICATION_WORK_STATES)[number];

/**
 * What the notifications ask for, per wearable connection, data type and civil day: fetch that
 * day again. One row per key however often it is notified: a new notification bumps
 * `generation` and sets the row pending again, so a fetch that began before it is not taken as
 * covering it. `day` null means the whole range (a notification without intervals, or one too
 * long to split into days). `deleted` says some notification for it was a DELETE: rows the
 * platform already holds for that day may have to go.
 */
export const healthNotificationWork = pgTable(
  'health_notification_work',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    connectionId: uuid('connection_id')
      .notNull()
      .references(() => wearableConnections.id, { onDelete: 'cascade' }),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    dataType: text('data_type').notNull(),
    day: date('day', { mode: 'string' }),
    state: text('state', { enum: NOTIFICATION_WORK_STATES }).notNull().default('pending'),
    deleted: smallint('deleted').notNull().default(0),
    generation: integer('generation').notNull().default(1),
    lastNotificationId: uuid('last_notification_id').references(() => healthNotifications.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('health_notification_work_key').on(t.connectionId, t.dataType, t.day).nullsNotDistinct(),
    index('health_notification_work_pending_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} = 'pending'`),
    // The master's dashboard counts the rows being fetched.
    index('health_notification_work_processing_idx')
      .on(t.updatedAt)
      .where(sql`${t.state} = 'processing'`),
  ],
);

// The reasons are the contract's: the master's dashboard lists them.
export { NOTIFICATION_REFUSALS, type NotificationRefusal };

/**
 * Calls to the webhook that were refused, counted per UTC day and reason (for the operator):
 * nothing of the refused request is kept.
 */
export const healthNotificationRefusals = pgTable(
  'health_notification_refusals',
  {
    day: date('day', { mode: 'string' }).notNull(),
    reason: text('reason', { enum: NOTIFICATION_REFUSALS }).notNull(),
    count: integer('count').notNull().default(0),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.day, t.reason] })],
);
