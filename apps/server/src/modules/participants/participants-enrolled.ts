import {
  type ParticipantDetails,
  type ParticipantRow,
  type ParticipantSort,
  STUDY_DETAIL_MESSAGES,
} from '@research/contracts';
import { AppError, conflict, notFound } from '../../errors.js';
import type { RequestContext } from '../auth/index.js';
import type { StudyAccess } from '../studies/index.js';
import { participantDocumentsOf } from './participant-records.repository.js';
import * as repo from './participants.repository.js';
import {
  type Actor,
  audit,
  iso,
  isUuid,
  type ParticipantAccess,
  type ParticipantsDeps,
} from './participants-shared.js';

/** Enrolled participants: who may see one, the list, the details and their documents, changes. */
export function createEnrolledOperations({
  db,
  objectStore,
  studies,
  revokeWearable,
  latestDays,
  changeVerifiedEmail,
}: ParticipantsDeps) {
  async function details({
    access,
    participant: p,
  }: ParticipantAccess): Promise<ParticipantDetails> {
    const documents = await participantDocumentsOf(db, p.id);
    return {
      participantId: p.id,
      firstName: p.firstName,
      lastName: p.lastName,
      email: p.email,
      phoneNumber: p.phoneNumber,
      studyCode: access.study.studyCode,
      status: p.status,
      enrolledAt: p.enrolledAt.toISOString(),
      authorizedAt: iso(p.authorizedAt),
      additionalInfo: p.additionalInfo,
      documents: documents.map((d) => ({
        id: d.id,
        name: d.name,
        type: d.mimeType,
        size: d.sizeBytes,
        uploadedAt: d.uploadedAt.toISOString(),
      })),
      informationCompleted: p.informationCompletedAt !== null,
      informationCompletedAt: iso(p.informationCompletedAt),
    };
  }

  return {
    /**
     * Resolves a participant id to its study and checks membership. Unknown ids, deleted
     * participants and participants of studies the caller is not a member of are all 404, so a
     * non-member learns nothing about other studies' participants.
     */
    async participantAccess(participantId: string, userId: string): Promise<ParticipantAccess> {
      const found = await repo.findLiveParticipant(db, participantId);
      if (!found)
        throw notFound(STUDY_DETAIL_MESSAGES.participantNotFound, 'PARTICIPANT_NOT_FOUND');
      try {
        const access = await studies.access(found.participant.studyId, userId);
        return { access, participant: found.participant };
      } catch (error) {
        if (error instanceof AppError && (error.statusCode === 403 || error.statusCode === 404))
          throw notFound(STUDY_DETAIL_MESSAGES.participantNotFound, 'PARTICIPANT_NOT_FOUND');
        throw error;
      }
    },

    async list(
      access: StudyAccess,
      page: repo.Page<ParticipantSort>,
    ): Promise<{ participants: ParticipantRow[]; totalCount: number }> {
      const { rows, totalCount } = await repo.listParticipants(db, access.study.id, page);
      const days =
        (await latestDays?.(
          access.study.id,
          rows.map((row) => row.participant.id),
        )) ?? new Map();
      return {
        totalCount,
        participants: rows.map(({ participant: p, ...auth }) => ({
          id: p.id,
          participantId: p.id,
          firstName: p.firstName,
          lastName: p.lastName,
          participantEmail: p.email,
          phoneNumber: p.phoneNumber,
          status: p.status,
          enrolledAt: p.enrolledAt.toISOString(),
          authorizationStatus: Boolean(auth.authorized),
          hasAccessToken: Boolean(auth.hasAccessToken),
          tokenExpiresAt: iso(auth.tokenExpiresAt),
          fitbitUserId: auth.providerUserId ?? null,
          displayStatus: auth.displayStatus,
          lastDeviceSyncAt: iso(auth.lastDeviceSyncAt),
          latestDay: days.get(p.id) ?? null,
        })),
      };
    },

    details,

    /** Opens a participant document for download; every download is recorded. */
    async openDocument(
      { access, participant }: ParticipantAccess,
      documentId: string,
      actor: Actor,
      ctx: RequestContext,
    ) {
      const document = isUuid(documentId)
        ? await repo.findDocument(db, participant.id, documentId)
        : undefined;
      if (!document) throw notFound(STUDY_DETAIL_MESSAGES.documentNotFound, 'DOCUMENT_NOT_FOUND');
      const object = await objectStore
        .getObject(studies.bucketOf(access.study.id), document.objectKey)
        .catch(() => {
          throw notFound(STUDY_DETAIL_MESSAGES.documentNotFound, 'DOCUMENT_NOT_FOUND');
        });
      await audit(
        db,
        actor,
        access.study.id,
        'participant.document_downloaded',
        'participant',
        participant.id,
        ctx,
        { documentId },
      );
      return { document, body: object.body };
    },

    async update(
      target: ParticipantAccess,
      input: {
        firstName: string;
        lastName: string;
        participantEmail?: string | undefined;
        studyCode?: string | undefined;
      },
      actor: Actor,
      ctx: RequestContext,
    ): Promise<ParticipantDetails> {
      const { access, participant } = target;
      if (input.studyCode && input.studyCode.trim().toUpperCase() !== access.study.studyCode)
        throw new AppError(400, 'STUDY_CODE_MISMATCH', STUDY_DETAIL_MESSAGES.studyCodeMismatch);
      const email = input.participantEmail?.trim().toLowerCase();
      if (email && email !== participant.email) {
        if (await repo.participantEmailTaken(db, access.study.id, email, participant.id))
          throw conflict(STUDY_DETAIL_MESSAGES.participantEmailTaken, 'PARTICIPANT_EMAIL_TAKEN');
      }
      const changes = {
        firstName: input.firstName,
        lastName: input.lastName,
        ...(email ? { email } : {}),
      };
      await db.transaction(async (tx) => {
        await repo.updateParticipant(tx, participant.id, changes);
        if (email && email !== participant.email)
          await changeVerifiedEmail(tx, access.study.id, participant.id, email);
        await audit(
          tx,
          actor,
          access.study.id,
          'participant.updated',
          'participant',
          participant.id,
          ctx,
          {
            studyId: access.study.id,
            fields: Object.keys(changes),
          },
        );
      });
      return details({ access, participant: { ...participant, ...changes } });
    },

    /** Soft delete, owner only: gone from lists, kept for the retention period. */
    async remove(target: ParticipantAccess, actor: Actor, ctx: RequestContext) {
      const { access, participant } = target;
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', STUDY_DETAIL_MESSAGES.onlyOwnerDeletesParticipants);
      // The grant at Google goes first: a deleted participant must leave no live access behind.
      await revokeWearable?.(participant.id, actor.id);
      await db.transaction(async (tx) => {
        await repo.updateParticipant(tx, participant.id, { deletedAt: new Date() });
        await audit(
          tx,
          actor,
          access.study.id,
          'participant.deleted',
          'participant',
          participant.id,
          ctx,
          {
            studyId: access.study.id,
          },
        );
      });
    },
  };
}
