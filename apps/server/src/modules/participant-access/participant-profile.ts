import {
  ENROLMENT_MESSAGES,
  ENROLMENT_SERVER_MESSAGES,
  PARTICIPANT_DOCUMENT_LIMITS,
  PARTICIPANT_DOCUMENT_MESSAGES,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../errors.js';
import type { UploadedFile } from '../../http/multipart.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import {
  findLiveParticipantInStudy,
  insertParticipantDocuments,
  participantDocumentsOf,
  updateParticipantInfo,
} from '../participants/index.js';
import { studyBucket } from '../studies/index.js';
import {
  type CheckedDocument,
  checkDocuments,
  discardDocuments,
  documentView,
  storeDocuments,
} from './participant-documents.js';
import type { Context, VerificationService } from './verification.service.js';

export interface ParticipantProfileDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  verification: VerificationService;
}

/**
 * The profile step after enrolment: names, a note and documents, sent with the participant's
 * verified session. Files are checked first, stored next, then the rows written in one
 * transaction (the stored files are removed again if that fails).
 */
export function createParticipantProfile({
  db,
  config,
  objectStore,
  verification,
}: ParticipantProfileDeps) {
  const clock = verification.clock;

  /** The profile form's rows: the participant's names and note, the documents, the audit. */
  async function recordProfile(
    tx: DbOrTx,
    where: { participantId: string; studyId: string },
    fields: { firstName: string; lastName: string; additionalInfo?: string | undefined },
    documents: CheckedDocument[],
    now: Date,
    ctx: Context,
  ) {
    await updateParticipantInfo(tx, where.participantId, {
      firstName: fields.firstName,
      lastName: fields.lastName,
      additionalInfo: fields.additionalInfo ? fields.additionalInfo : null,
      informationCompletedAt: now,
    });
    await insertParticipantDocuments(
      tx,
      documents.map((d) => ({
        id: d.id,
        participantId: where.participantId,
        studyId: where.studyId,
        name: d.name,
        mimeType: d.mimeType,
        sizeBytes: d.data.length,
        objectKey: d.objectKey,
        uploadedAt: now,
      })),
    );
    await recordAudit(tx, {
      actorId: null,
      studyId: where.studyId,
      action: 'participant.information_completed',
      targetType: 'participant',
      targetId: where.participantId,
      details: { documents: documents.length },
      ip: ctx.ip,
    });
  }

  /** POST /api/participants/update-info: profile and documents, with the session. */
  async function updateInfo(
    fields: {
      participantId: string;
      studyCode: string;
      firstName: string;
      lastName: string;
      additionalInfo?: string | undefined;
    },
    files: UploadedFile[],
    token: string | undefined,
    ctx: Context,
  ) {
    const { study } = await verification.studyByCode(fields.studyCode);
    await verification.requireSession(token, {
      participantId: fields.participantId,
      studyId: study.id,
    });
    const participant = await findLiveParticipantInStudy(db, study.id, fields.participantId);
    if (!participant)
      throw notFound(ENROLMENT_MESSAGES.missingParticipantData, 'PARTICIPANT_NOT_FOUND');
    if (files.length > 0) {
      const kept = await participantDocumentsOf(db, participant.id);
      if (kept.length + files.length > PARTICIPANT_DOCUMENT_LIMITS.maxKeptFiles)
        throw new AppError(413, 'TOO_MANY_DOCUMENTS', PARTICIPANT_DOCUMENT_MESSAGES.tooManyKept);
    }
    const documents = await checkDocuments(participant.id, files);
    const bucket = studyBucket(config, study.id);
    await storeDocuments(objectStore, bucket, documents);
    const now = clock.now();
    try {
      await db.transaction((tx) =>
        recordProfile(
          tx,
          { participantId: participant.id, studyId: study.id },
          fields,
          documents,
          now,
          ctx,
        ),
      );
    } catch (error) {
      // No rows, so no files: the stored objects would be orphans.
      await discardDocuments(objectStore, bucket, documents);
      throw error;
    }
    const stored = await participantDocumentsOf(db, participant.id);
    return {
      participantId: participant.id,
      message: ENROLMENT_SERVER_MESSAGES.updated,
      informationCompleted: true,
      informationCompletedAt: now.toISOString(),
      documents: stored.map(documentView),
    };
  }

  return { updateInfo };
}
