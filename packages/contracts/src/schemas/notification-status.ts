/**
 * GET /api/admin/health-notifications/status: the master's view of Google Health's change
 * notifications — the webhook subscriber as Google reports it, what arrived, what is still to
 * do, and what was refused.
 */

import { z } from 'zod';
import { successSchema } from './errors.js';

/** Why a call to the webhook was refused (counted per UTC day and reason). */
export const NOTIFICATION_REFUSALS = [
  'missing_authorization',
  'wrong_authorization',
  'not_configured',
  'missing_signature',
  'malformed_signature',
  'unknown_key',
  'bad_signature',
  'keyset_unavailable',
  'invalid_payload',
] as const;
export type NotificationRefusal = (typeof NOTIFICATION_REFUSALS)[number];

/** Settings without which the server cannot ask Google about its subscriber. */
export const SUBSCRIBER_SETTINGS = [
  'GOOGLE_HEALTH_SERVICE_ACCOUNT_FILE',
  'GOOGLE_HEALTH_PROJECT_NUMBER',
] as const;

/** Why Google's answer is missing: the service account's key, its token, Google's refusal … */
export const SUBSCRIBER_LOOKUP_FAILURES = [
  'key_file',
  'token',
  'unauthenticated',
  'permission_denied',
  'unavailable',
  'timeout',
  'invalid_response',
] as const;
export type SubscriberLookupFailure = (typeof SUBSCRIBER_LOOKUP_FAILURES)[number];

const subscriberConfigSchema = z.object({
  /** AUTOMATIC (every connected account) or MANUAL (per-user subscriptions). */
  subscriptionCreatePolicy: z.string(),
  dataTypes: z.array(z.string()),
});

const subscriberStatusSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('registered'),
    /** `projects/{number}/subscribers/{id}` */
    name: z.string(),
    /** Google's state of the subscriber (ACTIVE …). */
    state: z.string(),
    endpointUri: z.string(),
    /** The endpoint is this server's PUBLIC_URL + /webhooks/google-health. */
    isThisEndpoint: z.boolean(),
    secretSet: z.boolean(),
    configs: z.array(subscriberConfigSchema),
    /** Types the research types read that the subscriber does not ask for (automatically). */
    missingDataTypes: z.array(z.string()),
  }),
  z.object({
    status: z.literal('not_registered'),
    /** Other subscribers of the same Cloud project (names), pointing elsewhere. */
    others: z.array(z.string()),
  }),
  z.object({
    status: z.literal('not_configured'),
    missing: z.array(z.enum(SUBSCRIBER_SETTINGS)),
  }),
  z.object({
    status: z.literal('lookup_failed'),
    reason: z.enum(SUBSCRIBER_LOOKUP_FAILURES),
    /** What went wrong, for the operator (never a token or a secret). */
    detail: z.string(),
  }),
]);
export type SubscriberStatus = z.infer<typeof subscriberStatusSchema>;

const refusalRowSchema = z.object({
  reason: z.enum(NOTIFICATION_REFUSALS),
  today: z.number().int(),
  last7Days: z.number().int(),
  lastAt: z.string(),
});

export const notificationStatusSchema = z.object({
  subscriber: subscriberStatusSchema,
  /** When Google was asked (its answer is kept for a short while). */
  checkedAt: z.string(),
  /** Where Google should send notifications: PUBLIC_URL + /webhooks/google-health. */
  endpointUrl: z.string(),
  /** GOOGLE_HEALTH_WEBHOOK_SECRET is set (without it every notification is refused). */
  secretConfigured: z.boolean(),
  received: z.object({
    lastAt: z.string().nullable(),
    lastDataType: z.string().nullable(),
    last24Hours: z.number().int(),
  }),
  backlog: z.object({
    /** Stored notifications not yet turned into work. */
    unresolved: z.number().int(),
    oldestUnresolvedAt: z.string().nullable(),
    pending: z.number().int(),
    processing: z.number().int(),
    oldestPendingAt: z.string().nullable(),
  }),
  /** Reasons refused in the last 7 UTC days (today included), most refused first. */
  refusals: z.array(refusalRowSchema),
});
export type NotificationStatus = z.infer<typeof notificationStatusSchema>;

export const notificationStatusResponseSchema = successSchema({
  notifications: notificationStatusSchema,
});
