/** The Study Members tab and the tab counts of the study detail screen. */

import { z } from 'zod';
import { component } from './component.js';
import { successSchema } from './errors.js';
import { studyRoleSchema } from './studies.js';

/** A member of a study (owner or collaborator). */
const studyMemberSchema = component(
  'StudyMember',
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    /** 'active' for an approved researcher account; anything else is shown as a warning. */
    status: z.string(),
    joinedDate: z.string().nullable(),
    role: studyRoleSchema,
  }),
);
export type StudyMember = z.infer<typeof studyMemberSchema>;

export const memberListResponseSchema = successSchema({ members: z.array(studyMemberSchema) });

/**
 * GET /api/studies/:id/stats — the tab counts in one call:
 * participants (live participants), pendingParticipants (live pending rows, not yet enrolled),
 * members (owner + collaborators), emails (mailings in the history), authorizedParticipants
 * (participants with an active wearable authorization), lastEmailSentAt (newest mailing or null).
 */
const studyStatsSchema = z.object({
  participants: z.number().int(),
  pendingParticipants: z.number().int(),
  members: z.number().int(),
  emails: z.number().int(),
  authorizedParticipants: z.number().int(),
  /** Connected participants at risk under the study's rule (the Adherence tab's count). */
  atRisk: z.number().int(),
  lastEmailSentAt: z.string().nullable(),
});
export type StudyStats = z.infer<typeof studyStatsSchema>;
export const studyStatsResponseSchema = successSchema({ stats: studyStatsSchema });
