import {
  type ParticipantDetails,
  type ParticipantRow,
  type ParticipantSort,
  type PendingParticipant,
  type PendingSort,
  type RosterDuplicate,
  type RosterIntent,
  type RosterRow,
  STUDY_DETAIL_MESSAGES,
  type StudyMember,
  type StudyStats,
  storedPhone,
  validateRosterRows,
} from '@research/contracts';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, conflict, notFound } from '../../errors.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import type { StudiesService, StudyAccess } from '../studies/index.js';
import * as repo from './participants.repository.js';

export interface ParticipantsDeps {
  db: Db;
  objectStore: ObjectStore;
  studies: StudiesService;
  /** Revokes the participant's wearable grant at the provider (wearables service). */
  revokeWearable?: (participantId: string, actorId: string) => Promise<unknown>;
}

export interface Actor {
  id: string;
}

/** A participant and the caller's access to its study, resolved once per request. */
export interface ParticipantAccess {
  access: StudyAccess;
  participant: repo.ParticipantRecord;
}

const iso = (value: Date | string | null | undefined) =>
  value == null ? null : new Date(value).toISOString();
const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** Unique, lower-cased e-mails of a roster with the row where each first appears. */
export function rosterDuplicatesInFile(rows: readonly RosterRow[]) {
  const firstRow = new Map<string, number>();
  const duplicates: RosterDuplicate[] = [];
  const unique: { row: number; value: RosterRow; email: string }[] = [];
  rows.forEach((value, index) => {
    const email = value.email.trim().toLowerCase();
    const seen = firstRow.get(email);
    if (seen !== undefined) {
      duplicates.push({
        row: index + 1,
        email,
        reason: 'file',
        message: STUDY_DETAIL_MESSAGES.duplicateInFile(email, seen),
      });
      return;
    }
    firstRow.set(email, index + 1);
    unique.push({ row: index + 1, value, email });
  });
  return { unique, duplicates };
}

export function createParticipantsService({
  db,
  objectStore,
  studies,
  revokeWearable,
}: ParticipantsDeps) {
  function toPending(row: repo.PendingRecord, access: StudyAccess): PendingParticipant {
    return {
      id: row.id,
      participantId: row.participantId,
      email: row.email,
      phoneNumber: row.phoneNumber,
      firstName: row.firstName,
      lastName: row.lastName,
      studyCode: access.study.studyCode,
      studyName: access.study.name,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function audit(
    tx: DbOrTx,
    actor: Actor,
    action: string,
    targetType: string,
    targetId: string,
    ctx: RequestContext,
    details: Record<string, unknown> = {},
  ) {
    await recordAudit(tx, { actorId: actor.id, action, targetType, targetId, details, ip: ctx.ip });
  }

  type UniqueRow = ReturnType<typeof rosterDuplicatesInFile>['unique'][number];
  type Duplicate = ReturnType<typeof rosterDuplicatesInFile>['duplicates'][number];

  /**
   * The rows whose address is neither a participant nor (unless inviting) on the roster yet;
   * the others join `duplicates`, each with its reason.
   */
  async function withoutKnownAddresses(
    studyId: string,
    unique: UniqueRow[],
    duplicates: Duplicate[],
    invite: boolean,
  ): Promise<UniqueRow[]> {
    const emails = unique.map((u) => u.email);
    const [asParticipants, asPending] = await Promise.all([
      repo.existingParticipantEmails(db, studyId, emails),
      invite ? new Set<string>() : repo.existingPendingEmails(db, studyId, emails),
    ]);
    return unique.filter(({ row, email }) => {
      if (asParticipants.has(email)) {
        duplicates.push({
          row,
          email,
          reason: 'participant',
          message: STUDY_DETAIL_MESSAGES.alreadyParticipant(email),
        });
        return false;
      }
      if (asPending.has(email)) {
        duplicates.push({
          row,
          email,
          reason: 'pending',
          message: STUDY_DETAIL_MESSAGES.alreadyPending(email),
        });
        return false;
      }
      return true;
    });
  }

  /** The new roster rows and their audit entry; returns how many were inserted. */
  async function insertRoster(
    tx: DbOrTx,
    studyId: string,
    fresh: UniqueRow[],
    actor: Actor,
    ctx: RequestContext,
    counts: { source: 'csv' | 'json'; duplicates: number },
  ) {
    const inserted = await repo.insertPending(
      tx,
      fresh.map(({ email, value }) => ({
        studyId,
        email,
        phoneNumber: storedPhone(value.phoneNumber),
        firstName: blankToNull(value.firstName),
        lastName: blankToNull(value.lastName),
        status: 'pre-enrolled',
        invitedBy: actor.id,
      })),
    );
    await audit(tx, actor, 'pending_participants.added', 'study', studyId, ctx, {
      source: counts.source,
      created: inserted,
      duplicates: counts.duplicates,
    });
    return inserted;
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
        })),
      };
    },

    async details({ access, participant: p }: ParticipantAccess): Promise<ParticipantDetails> {
      const documents = await repo.documentsOf(db, p.id);
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
    },

    /** Opens a participant document for download; every download is recorded. */
    async openDocument(
      { access, participant }: ParticipantAccess,
      documentId: string,
      actor: Actor,
      ctx: RequestContext,
    ) {
      const document = /^[0-9a-f-]{36}$/i.test(documentId)
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
        'participant.document_downloaded',
        'participant',
        participant.id,
        ctx,
        {
          documentId,
        },
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
        await audit(tx, actor, 'participant.updated', 'participant', participant.id, ctx, {
          studyId: access.study.id,
          fields: Object.keys(changes),
        });
      });
      return this.details({ access, participant: { ...participant, ...changes } });
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
        await audit(tx, actor, 'participant.deleted', 'participant', participant.id, ctx, {
          studyId: access.study.id,
        });
      });
    },

    async listPending(access: StudyAccess, page: repo.Page<PendingSort>) {
      const { rows, totalCount } = await repo.listPending(db, access.study.id, page);
      return { pendingParticipants: rows.map((row) => toPending(row, access)), totalCount };
    },

    /**
     * Adds roster rows as 'pre-enrolled' pending participants. The whole roster is checked
     * first; if any row is invalid nothing is written and every row's problem is returned.
     * Addresses repeated in the roster, already participants or already pending are reported as
     * duplicates and not added twice. `dryRun` checks and reports without writing. The 'invite'
     * intent (the invite dialog's check) is always a dry run and keeps addresses already pending:
     * an invitation makes them 'invited' (ROSTER_INTENTS).
     */
    async addRoster(
      access: StudyAccess,
      rows: RosterRow[],
      actor: Actor,
      ctx: RequestContext,
      options: { dryRun?: boolean; intent?: RosterIntent; source: 'csv' | 'json' },
    ) {
      const invite = options.intent === 'invite';
      const dryRun = invite || Boolean(options.dryRun);
      const issues = validateRosterRows(rows);
      if (issues.length > 0) {
        throw new AppError(
          400,
          'VALIDATION_ERROR',
          issues[0]?.message ?? STUDY_DETAIL_MESSAGES.invalidRoster,
          {
            fields: issues,
          },
        );
      }
      const { unique, duplicates } = rosterDuplicatesInFile(rows);
      const fresh = await withoutKnownAddresses(access.study.id, unique, duplicates, invite);
      duplicates.sort((a, b) => a.row - b.row);
      let created = 0;
      if (!dryRun && fresh.length > 0) {
        created = await db.transaction((tx) =>
          insertRoster(tx, access.study.id, fresh, actor, ctx, {
            source: options.source,
            duplicates: duplicates.length,
          }),
        );
      }
      return {
        created,
        duplicates,
        totalRows: rows.length,
        dryRun,
        message: STUDY_DETAIL_MESSAGES.pendingAdded(created),
        ...(dryRun
          ? {
              participants: fresh.map(({ email, value }) => ({
                email,
                phoneNumber: blankToNull(value.phoneNumber),
                firstName: blankToNull(value.firstName),
                lastName: blankToNull(value.lastName),
              })),
            }
          : {}),
      };
    },

    async updatePending(
      access: StudyAccess,
      pendingId: string,
      input: { phoneNumber?: string | null | undefined },
      actor: Actor,
      ctx: RequestContext,
    ): Promise<PendingParticipant> {
      const pending = await findPendingOf(access, pendingId);
      // A field left out keeps its value: only an explicit null or blank clears the phone.
      if (input.phoneNumber === undefined) return toPending(pending, access);
      const phoneNumber = storedPhone(input.phoneNumber);
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updatePending(tx, pending.id, { phoneNumber });
        await audit(
          tx,
          actor,
          'pending_participant.updated',
          'pending_participant',
          pending.id,
          ctx,
          {
            studyId: access.study.id,
          },
        );
        return updated;
      });
      if (!row)
        throw notFound(STUDY_DETAIL_MESSAGES.pendingParticipantNotFound, 'PENDING_NOT_FOUND');
      return toPending(row, access);
    },

    async removePending(access: StudyAccess, pendingId: string, actor: Actor, ctx: RequestContext) {
      const pending = await findPendingOf(access, pendingId);
      await db.transaction(async (tx) => {
        await repo.deletePending(tx, pending.id);
        await audit(
          tx,
          actor,
          'pending_participant.removed',
          'pending_participant',
          pending.id,
          ctx,
          {
            studyId: access.study.id,
          },
        );
      });
    },

    async members(access: StudyAccess): Promise<StudyMember[]> {
      const rows = await repo.listMembers(db, access.study.id);
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
      const role = /^[0-9a-f-]{36}$/i.test(userId)
        ? await repo.memberRole(db, access.study.id, userId)
        : undefined;
      if (!role) throw notFound(STUDY_DETAIL_MESSAGES.memberNotFound, 'MEMBER_NOT_FOUND');
      if (role === 'main')
        throw new AppError(400, 'CANNOT_REMOVE_OWNER', STUDY_DETAIL_MESSAGES.cannotRemoveOwner);
      await db.transaction(async (tx) => {
        await repo.removeMember(tx, access.study.id, userId);
        await audit(tx, actor, 'study.member_removed', 'study', access.study.id, ctx, {
          userId,
        });
      });
    },

    async stats(access: StudyAccess): Promise<StudyStats> {
      const row = await repo.studyCounts(db, access.study.id);
      return {
        participants: Number(row?.participants ?? 0),
        pendingParticipants: Number(row?.pending ?? 0),
        members: Number(row?.members ?? 0),
        emails: Number(row?.emails ?? 0),
        authorizedParticipants: Number(row?.authorized ?? 0),
        lastEmailSentAt: iso(row?.last_email ?? null),
      };
    },
  };

  async function findPendingOf(access: StudyAccess, pendingId: string) {
    const pending = /^[0-9a-f-]{36}$/i.test(pendingId)
      ? await repo.findPending(db, access.study.id, pendingId)
      : undefined;
    if (!pending)
      throw notFound(STUDY_DETAIL_MESSAGES.pendingParticipantNotFound, 'PENDING_NOT_FOUND');
    return pending;
  }
}

export type ParticipantsService = ReturnType<typeof createParticipantsService>;
