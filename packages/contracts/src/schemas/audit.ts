/**
 * The audit trail as its readers get it: a study's (its owner) and the platform's (the master).
 * Each kind is a set of actions, so a filter and a row's label agree: an action belongs to the
 * first kind that names it (exactly, or by its prefix `area.*`).
 */

import { z } from 'zod';
import { AUDIT_TEXTS } from '../texts/audit.js';
import { isoDateSchema } from './common.js';
import { successSchema } from './errors.js';

/** Reads of personal data: each is recorded once per request. */
export const AUDIT_DATA_ACCESS_ACTIONS = [
  'participants.listed',
  'participant.viewed',
  'participant.document_downloaded',
  'participant.charts_viewed',
  'participant.heart_rate_viewed',
  'pending_participants.listed',
  'study.members_listed',
  'study.bucket_opened',
  'adherence.viewed',
  'email.details_viewed',
  'wearable.authorizations_listed',
  'wearable.status_viewed',
  'bucket.listed',
  'file.downloaded',
  'export.download',
  'extraction.jobs_listed',
  'extraction.job_viewed',
  'application.document_downloaded',
  'applications.listed',
  'researchers.listed',
  'audit.viewed',
  'audit.downloaded',
  'consent.signatures_listed',
  'consent.record_downloaded',
] as const;

/** Every kind, in the order an action is matched against them; 'other' takes the rest. */
export const AUDIT_KIND_ACTIONS = {
  data_access: AUDIT_DATA_ACCESS_ACTIONS,
  sign_in: ['auth.*'],
  export: ['export.*', 'extraction.*'],
  token: ['access_token.*'],
  invitation: ['email.*', 'pending_participants.added', 'study.participant_message'],
  settings: [
    'study.created',
    'study.updated',
    'study.password_changed',
    'study.deleted',
    'study.purged',
    'study.joined',
    'study.member_removed',
  ],
  consent: ['consent.*'],
  participant: ['participant.*', 'pending_participant.*'],
  wearable: ['wearable.*', 'dataset.*'],
  application: ['application.*'],
  master: ['admin.*'],
} as const satisfies Record<string, readonly string[]>;

export const AUDIT_KINDS = [
  'data_access',
  'sign_in',
  'export',
  'token',
  'invitation',
  'settings',
  'consent',
  'participant',
  'wearable',
  'application',
  'master',
  'other',
] as const satisfies readonly (keyof typeof AUDIT_KIND_ACTIONS | 'other')[];
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** The kinds offered on a study's trail and on the platform's. */
export const AUDIT_STUDY_KINDS = [
  'sign_in',
  'data_access',
  'export',
  'token',
  'invitation',
  'settings',
  'consent',
  'participant',
  'wearable',
] as const satisfies readonly AuditKind[];
export const AUDIT_PLATFORM_KINDS = [
  'sign_in',
  'application',
  'master',
  'data_access',
] as const satisfies readonly AuditKind[];

/** The actions a study member's sign-in leaves: the platform events a study's trail shows. */
export const AUDIT_SIGN_IN_ACTIONS = ['auth.sign_in', 'auth.google_sign_in'] as const;

const matches = (pattern: string, action: string) =>
  pattern.endsWith('.*') ? action.startsWith(pattern.slice(0, -1)) : action === pattern;

/** The kind an action belongs to. */
export function auditKindOf(action: string): AuditKind {
  for (const [kind, patterns] of Object.entries(AUDIT_KIND_ACTIONS))
    if ((patterns as readonly string[]).some((p) => matches(p, action))) return kind as AuditKind;
  return 'other';
}

/** Most rows a page may ask for. */
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_PAGE_DEFAULT = 50;

const filterShape = {
  /** The acting account's id. */
  actor: z.string().max(100).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  /** First and last day (UTC) to include, inclusive. */
  from: isoDateSchema.optional(),
  to: isoDateSchema.optional(),
};
const rangeInOrder = (q: { from?: string | undefined; to?: string | undefined }) =>
  !q.from || !q.to || q.from <= q.to;

/** GET /api/studies/:id/audit.csv and /api/admin/audit.csv: the filters. */
export const auditFilterQuerySchema = z
  .object(filterShape)
  .refine(rangeInOrder, { message: AUDIT_TEXTS.rangeInvalid, path: ['from'] });
export type AuditFilter = z.infer<typeof auditFilterQuerySchema>;

/** GET /api/studies/:id/audit and /api/admin/audit: the filters and the page. */
export const auditPageQuerySchema = z
  .object({
    ...filterShape,
    /** The previous page's `nextCursor`: the page starts after that row. */
    cursor: z.string().max(200).optional(),
    limit: z.coerce.number().int().min(1).max(AUDIT_PAGE_MAX).default(AUDIT_PAGE_DEFAULT),
  })
  .refine(rangeInOrder, { message: AUDIT_TEXTS.rangeInvalid, path: ['from'] });
export type AuditPageQuery = z.input<typeof auditPageQuerySchema>;

export const auditActorSchema = z.object({
  kind: z.enum(['user', 'participant', 'system']),
  id: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type AuditActor = z.infer<typeof auditActorSchema>;

export const auditEventSchema = z.object({
  id: z.uuid(),
  at: z.string(),
  actor: auditActorSchema,
  action: z.string(),
  kind: z.enum(AUDIT_KINDS),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageResponseSchema = successSchema({
  events: z.array(auditEventSchema),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageResponseSchema>;

/** How the trail names who acted. */
export const auditActorLabel = (actor: AuditActor): string =>
  actor.kind === 'user'
    ? [actor.name, actor.email ? `<${actor.email}>` : null].filter(Boolean).join(' ') ||
      (actor.id ?? AUDIT_TEXTS.system)
    : actor.kind === 'participant' && actor.id
      ? AUDIT_TEXTS.participant(actor.id)
      : AUDIT_TEXTS.system;
