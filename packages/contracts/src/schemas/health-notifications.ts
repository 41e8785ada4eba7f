/**
 * Google Health change notifications as they arrive at `POST /webhooks/google-health`: metadata
 * only (who, which data type, which time ranges changed), never values. The body is read only
 * after its signature is checked; these schemas are applied then.
 */

import { z } from 'zod';

const civilDate = z.object({
  year: z.number().int().min(1).max(9999),
  month: z.number().int().min(1).max(12),
  day: z.number().int().min(1).max(31),
});

/** Google leaves zero parts out: `"time": {}` is midnight, and a missing `time` too. */
const civilDateTime = z.object({
  date: civilDate,
  time: z
    .object({
      hours: z.number().int().min(0).max(24).optional(),
      minutes: z.number().int().min(0).max(59).optional(),
      seconds: z.number().int().min(0).max(60).optional(),
      nanos: z.number().int().min(0).optional(),
    })
    .optional(),
});

const timeText = z.string().min(1).max(64);

/**
 * One changed range, in up to three forms (instants, civil date-times, civil ISO text). Any one
 * of them is enough: receivers are told to expect intervals that carry only one.
 */
export const notificationIntervalSchema = z
  .object({
    physicalTimeInterval: z.object({ startTime: timeText, endTime: timeText }).optional(),
    civilDateTimeInterval: z
      .object({ startDateTime: civilDateTime, endDateTime: civilDateTime })
      .optional(),
    civilIso8601TimeInterval: z.object({ startTime: timeText, endTime: timeText }).optional(),
  })
  .refine(
    (i) => i.physicalTimeInterval || i.civilDateTimeInterval || i.civilIso8601TimeInterval,
    'an interval needs at least one of its three forms',
  );

export const NOTIFICATION_OPERATIONS = ['UPSERT', 'DELETE'] as const;
export type NotificationOperation = (typeof NOTIFICATION_OPERATIONS)[number];

/** One notification; members Google may add later are kept, not refused. */
export const healthNotificationSchema = z.object({
  data: z
    .object({
      version: z.string().max(16).optional(),
      clientProvidedSubscriptionName: z.string().max(256).optional(),
      /** The same id `users.getIdentity` answers, stored with each wearable connection. */
      healthUserId: z.string().regex(/^[A-Za-z0-9-]{1,63}$/),
      operation: z.enum(NOTIFICATION_OPERATIONS),
      /** kebab-case as in URLs (`heart-rate`); camelCase is accepted and normalised later. */
      dataType: z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/),
      intervals: z.array(notificationIntervalSchema).max(1000).default([]),
    })
    .loose(),
});
export type HealthNotification = z.output<typeof healthNotificationSchema>;
export type NotificationInterval = z.output<typeof notificationIntervalSchema>;

/** At most this many notifications in one body (a JSON array is accepted defensively). */
export const MAX_NOTIFICATIONS_PER_BODY = 100;

/** A body: one notification, or a JSON array of them. */
export const healthNotificationBodySchema = z.union([
  healthNotificationSchema,
  z.array(healthNotificationSchema).min(1).max(MAX_NOTIFICATIONS_PER_BODY),
]);

/** The endpoint check Google makes when a subscriber is created or its address or secret changes. */
export const webhookVerificationSchema = z.object({ type: z.literal('verification') });
