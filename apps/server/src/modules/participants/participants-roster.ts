import {
  type PendingParticipant,
  type PendingSort,
  type RosterDuplicate,
  type RosterIntent,
  type RosterRow,
  STUDY_DETAIL_MESSAGES,
  storedPhone,
  validateRosterRows,
} from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import { AppError, notFound } from '../../errors.js';
import type { RequestContext } from '../auth/index.js';
import type { StudyAccess } from '../studies/index.js';
import * as repo from './participants.repository.js';
import {
  type Actor,
  audit,
  blankToNull,
  isUuid,
  type ParticipantsDeps,
} from './participants-shared.js';

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

type UniqueRow = ReturnType<typeof rosterDuplicatesInFile>['unique'][number];
type Duplicate = ReturnType<typeof rosterDuplicatesInFile>['duplicates'][number];

/** The whole roster is checked before anything is written; the first problem leads the answer. */
function assertValidRoster(rows: RosterRow[]) {
  const issues = validateRosterRows(rows);
  if (issues.length > 0) {
    throw new AppError(
      400,
      'VALIDATION_ERROR',
      issues[0]?.message ?? STUDY_DETAIL_MESSAGES.invalidRoster,
      { fields: issues },
    );
  }
}

/** What a dry run would add, as the dialog shows it. */
const previewOf = (fresh: UniqueRow[]) =>
  fresh.map(({ email, value }) => ({
    email,
    phoneNumber: blankToNull(value.phoneNumber),
    firstName: blankToNull(value.firstName),
    lastName: blankToNull(value.lastName),
  }));

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

/** The roster: people added to a study (pending participants) before they enrol. */
export function createRosterOperations({ db }: Pick<ParticipantsDeps, 'db'>) {
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
    await audit(tx, actor, studyId, 'pending_participants.added', 'study', studyId, ctx, {
      source: counts.source,
      created: inserted,
      duplicates: counts.duplicates,
    });
    return inserted;
  }

  async function findPendingOf(access: StudyAccess, pendingId: string) {
    const pending = isUuid(pendingId)
      ? await repo.findPending(db, access.study.id, pendingId)
      : undefined;
    if (!pending)
      throw notFound(STUDY_DETAIL_MESSAGES.pendingParticipantNotFound, 'PENDING_NOT_FOUND');
    return pending;
  }

  return {
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
      assertValidRoster(rows);
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
        ...(dryRun ? { participants: previewOf(fresh) } : {}),
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
          access.study.id,
          'pending_participant.updated',
          'pending_participant',
          pending.id,
          ctx,
          { studyId: access.study.id },
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
          access.study.id,
          'pending_participant.removed',
          'pending_participant',
          pending.id,
          ctx,
          { studyId: access.study.id },
        );
      });
    },
  };
}
