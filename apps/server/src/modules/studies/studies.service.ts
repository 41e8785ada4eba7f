import { STUDY_MESSAGES, type Study, type UpdateStudyInput } from '@research/contracts';
import { AppError, badRequest } from '../../errors.js';
import type { Cipher } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext, UserRow } from '../auth/index.js';
import * as repo from './studies.repository.js';
import {
  decryptPassword,
  encryptPassword,
  isStudyId,
  type StudiesDeps,
  type StudyAccess,
  sameSecret,
  studyAccessFrom,
  studyBucket,
} from './studies-shared.js';
import { createStudyCreation } from './study-creation.js';
import { createStudyJoining } from './study-joining.js';
import { linkAccessOf } from './study-link-access.js';
import { createStudyPublicOperations } from './study-public.js';
import { createStudyView } from './study-view.js';

export {
  isStudyId,
  type StudiesDeps,
  type StudyAccess,
  studyAccessFrom,
  studyBucket,
} from './studies-shared.js';

type StudyChanges = Parameters<typeof repo.updateStudy>[2];

/** What happens to collected data a participant deletes in their Google account. */
export type DeletedDataPolicy = 'keep' | 'remove';

/** The settings an edit changed, with their new values (for the audit log: no personal data). */
function changedSettings(study: repo.StudyRow, input: UpdateStudyInput) {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input.settings ?? {})) {
    if (value !== undefined && study.settings[key as keyof typeof study.settings] !== value)
      changed[key] = value;
  }
  return changed;
}

/**
 * The changed fields of an owner's edit. A study without a password takes a first one with no
 * current password; a current password sent anyway cannot match anything, so it is refused
 * rather than ignored.
 */
function changesOf(cipher: Cipher, study: repo.StudyRow, input: UpdateStudyInput): StudyChanges {
  const changes: StudyChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.description !== undefined) changes.description = input.description || null;
  if (input.duration !== undefined) changes.duration = input.duration || null;
  if (input.settings !== undefined) changes.settings = { ...study.settings, ...input.settings };
  if (input.password !== undefined) {
    const stored = decryptPassword(cipher, study);
    const wrong =
      stored === null
        ? Boolean(input.currentPassword)
        : input.currentPassword === undefined || !sameSecret(input.currentPassword, stored);
    if (wrong) {
      throw new AppError(400, 'INVALID_CURRENT_PASSWORD', STUDY_MESSAGES.currentPasswordIncorrect);
    }
    changes.passwordEncrypted = encryptPassword(cipher, input.password);
  }
  return changes;
}

/**
 * Studies and their members: creation, joining and the public look-ups live in their own files
 * (study-creation, study-joining, study-public); reading, editing, deleting and the study's
 * storage here. The service is their union.
 */
export function createStudiesService(deps: StudiesDeps) {
  const { db, config, cipher, objectStore } = deps;
  const bucketOf = (studyId: string) => studyBucket(config, studyId);
  const view = createStudyView(deps);

  return {
    bucketOf,

    /** Whether a signed storage link of this study may still be used by its account. */
    linkAccess: (studyId: string, userId: string | null) => linkAccessOf(db, studyId, userId),

    /** The study password for mail to collaborators; never sent to the browser for that. */
    passwordOf: (study: repo.StudyRow) => decryptPassword(cipher, study),

    memberEmails: (studyId: string) => repo.memberEmails(db, studyId),

    /**
     * Whether data the participant deleted in their Google account leaves the study's dataset
     * ('remove') or stays, marked ('keep'). Keep unless the study says otherwise, also for a study
     * not found: nothing is removed on a doubt.
     */
    async deletedDataPolicy(studyId: string): Promise<DeletedDataPolicy> {
      if (!isStudyId(studyId)) return 'keep';
      const settings = await repo.settingsOf(db, studyId);
      return settings?.removeDataDeletedAtSource === true ? 'remove' : 'keep';
    },

    /** Remembers collaborator invitations sent from the study screen (for the dashboard list). */
    async recordCollaboratorInvitations(studyId: string, emails: string[], invitedBy: string) {
      for (const email of emails) await repo.recordInvitation(db, studyId, email, invitedBy, false);
    },

    /** Resolves a study for a member: 404 unknown or deleted, 403 not a member. */
    async access(studyId: string, userId: string): Promise<StudyAccess> {
      const found = isStudyId(studyId)
        ? await repo.findLiveStudyWithRole(db, studyId, userId)
        : undefined;
      return studyAccessFrom(found?.study ?? null, found?.role ?? null);
    },

    /** Cards for the dashboard: no passwords here (the owner reads it from the study itself). */
    list(userId: string, role: repo.MemberRole, page: { limit: number; offset: number }) {
      return repo.listStudiesOfMember(db, userId, role, page);
    },

    get: view.get,

    ...createStudyCreation(deps, view),

    async update(
      access: StudyAccess,
      user: UserRow,
      input: UpdateStudyInput,
      ctx: RequestContext,
    ): Promise<Study> {
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', 'Only the study owner can change the study.');
      const changes = changesOf(cipher, access.study, input);
      if (Object.keys(changes).length === 0)
        throw badRequest('Nothing to update.', 'NOTHING_TO_UPDATE');
      await db.transaction(async (tx) => {
        await repo.updateStudy(tx, access.study.id, changes);
        await recordAudit(tx, {
          actorId: user.id,
          studyId: access.study.id,
          action: input.password !== undefined ? 'study.password_changed' : 'study.updated',
          targetType: 'study',
          targetId: access.study.id,
          details: {
            fields: Object.keys(changes).map((k) => (k === 'passwordEncrypted' ? 'password' : k)),
            ...(input.settings ? { settings: changedSettings(access.study, input) } : {}),
          },
          ip: ctx.ip,
        });
      });
      return view.get(access);
    },

    async remove(access: StudyAccess, user: UserRow, ctx: RequestContext) {
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', 'Only the study owner can delete the study.');
      await db.transaction(async (tx) => {
        await repo.updateStudy(tx, access.study.id, { deletedAt: new Date() });
        await recordAudit(tx, {
          actorId: user.id,
          studyId: access.study.id,
          action: 'study.deleted',
          targetType: 'study',
          targetId: access.study.id,
          ip: ctx.ip,
        });
      });
    },

    ...createStudyJoining(deps, view),
    ...createStudyPublicOperations(deps),

    /** A signed, expiring link to the page that lists the study's files. */
    async bucketUrl(access: StudyAccess, user: UserRow, ctx: RequestContext) {
      const bucket = bucketOf(access.study.id);
      await objectStore.ensureBucket(bucket);
      await recordAudit(db, {
        actorId: user.id,
        studyId: access.study.id,
        action: 'study.bucket_opened',
        targetType: 'study',
        targetId: access.study.id,
        ip: ctx.ip,
      });
      return bucket;
    },
  };
}

export type StudiesService = ReturnType<typeof createStudiesService>;
