import {
  atRiskCutoff,
  DEFAULT_STUDY_SETTINGS,
  STUDY_DETAIL_MESSAGES,
  type StudyMember,
  type StudyStats,
} from '@research/contracts';
import { AppError, notFound } from '../../errors.js';
import type { RequestContext } from '../auth/index.js';
import {
  listStudyTeam,
  membershipOf,
  removeCollaborator,
  type StudyAccess,
} from '../studies/index.js';
import * as repo from './participants.repository.js';
import { type Actor, audit, iso, isUuid, type ParticipantsDeps } from './participants-shared.js';

/** The study's team (its members) and the counts its detail page shows. */
export function createMemberOperations({ db }: Pick<ParticipantsDeps, 'db'>) {
  return {
    async members(access: StudyAccess): Promise<StudyMember[]> {
      const rows = await listStudyTeam(db, access.study.id);
      return rows.map((row) => {
        const applicationName = [row.firstName, row.lastName].filter(Boolean).join(' ');
        return {
          id: row.userId,
          name: row.displayName || applicationName || row.email,
          email: row.email,
          phone: row.phone ?? null,
          status:
            row.applicationStatus === 'approved' ? 'active' : (row.applicationStatus ?? 'inactive'),
          joinedDate: iso(row.joinedAt),
          role: row.role,
        };
      });
    },

    /** Owner only; the collaborator loses access with their next request. */
    async removeMember(access: StudyAccess, userId: string, actor: Actor, ctx: RequestContext) {
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', STUDY_DETAIL_MESSAGES.onlyOwnerRemovesMembers);
      const role = isUuid(userId) ? await membershipOf(db, access.study.id, userId) : undefined;
      if (!role) throw notFound(STUDY_DETAIL_MESSAGES.memberNotFound, 'MEMBER_NOT_FOUND');
      if (role === 'main')
        throw new AppError(400, 'CANNOT_REMOVE_OWNER', STUDY_DETAIL_MESSAGES.cannotRemoveOwner);
      await db.transaction(async (tx) => {
        await removeCollaborator(tx, access.study.id, userId);
        await audit(
          tx,
          actor,
          access.study.id,
          'study.member_removed',
          'study',
          access.study.id,
          ctx,
          {
            userId,
          },
        );
      });
    },

    async stats(access: StudyAccess): Promise<StudyStats> {
      // The heat map's rule (isAtRisk), as a bound the count can use.
      const riskDays =
        access.study.settings.riskNoSyncDays ?? DEFAULT_STUDY_SETTINGS.riskNoSyncDays;
      const row = await repo.studyCounts(db, access.study.id, atRiskCutoff(new Date(), riskDays));
      return {
        participants: Number(row?.participants ?? 0),
        pendingParticipants: Number(row?.pending ?? 0),
        members: Number(row?.members ?? 0),
        emails: Number(row?.emails ?? 0),
        authorizedParticipants: Number(row?.authorized ?? 0),
        atRisk: Number(row?.at_risk ?? 0),
        lastEmailSentAt: iso(row?.last_email ?? null),
      };
    },
  };
}
