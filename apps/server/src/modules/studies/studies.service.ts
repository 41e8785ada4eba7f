import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  bucketNameForStudy,
  type CreateStudyInput,
  createStudySchema,
  ENROLL_TEXTS,
  NOTIFY_RESEARCHER_LIMITS,
  NOTIFY_RESEARCHER_MESSAGES,
  STUDY_CODE,
  STUDY_CODE_ALPHABET,
  STUDY_MESSAGES,
  type Study,
  type UpdateStudyInput,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../errors.js';
import { type Cipher, sha256Hex } from '../../platform/crypto.js';
import { renderEmail } from '../../platform/mail-templates.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { countSends, sendKey, uncountSends } from '../../platform/send-counters.js';
import { findLiveApplicationOfUser } from '../applications/index.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import {
  findUserByEmail,
  recentAuthFailures,
  recordAuthFailure,
  type UserRow,
} from '../auth/index.js';
import type { Messaging } from '../messaging/index.js';
import * as repo from './studies.repository.js';

const PASSWORD_AD = 'studies.password';
const JOIN_WINDOW_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;
const MAX_JOIN_FAILURES = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Anything else names no study (and would fail the uuid cast in SQL). */
export const isStudyId = (id: string) => UUID.test(id);

/** The study's bucket: `study-{id}-data`, behind the operator's prefix on S3. */
export const studyBucket = (config: AppConfig, studyId: string) =>
  `${config.storage.driver === 's3' ? config.storage.bucketPrefix : ''}${bucketNameForStudy(studyId)}`;

export type StudyAccess = { study: repo.StudyRow; role: repo.MemberRole };

/** The membership rule, wherever the study and role were read: 404 unknown or deleted, 403 not a member. */
export function studyAccessFrom(
  study: repo.StudyRow | null,
  role: repo.MemberRole | null,
): StudyAccess {
  if (!study) throw notFound(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND');
  if (!role) throw new AppError(403, 'NOT_A_MEMBER', 'You are not a member of this study.');
  return { study, role };
}

export interface StudiesDeps {
  db: Db;
  config: AppConfig;
  cipher: Cipher;
  messaging: Messaging;
  objectStore: ObjectStore;
}

const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(sha256Hex(a), 'hex');
  const right = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(left, right);
};

export function createStudiesService({ db, config, cipher, messaging, objectStore }: StudiesDeps) {
  const bucketOf = (studyId: string) => studyBucket(config, studyId);
  const decryptPassword = (study: repo.StudyRow) =>
    study.passwordEncrypted ? cipher.decrypt(study.passwordEncrypted, PASSWORD_AD) : null;

  /**
   * Counts a participant's message before anything is mailed. The call is public, so the sender
   * address proves nothing: the per-sender limit keeps one person fair, and the per-study one
   * caps what the owner receives when every request comes with a new address and network.
   */
  async function countParticipantMessage(studyId: string, senderEmail: string) {
    const sender = sendKey(studyId, senderEmail.trim().toLowerCase());
    const fromSender = await countSends(db, 'notify_sender', [sender], HOUR_MS);
    if ((fromSender.get(sender) ?? 0) > NOTIFY_RESEARCHER_LIMITS.perSenderPerHour)
      throw tooManyRequests(NOTIFY_RESEARCHER_MESSAGES.tooManyFromSender, 'TOO_MANY_MESSAGES');
    const study = sendKey(studyId);
    const forStudy = await countSends(db, 'notify_study', [study], HOUR_MS);
    if ((forStudy.get(study) ?? 0) > NOTIFY_RESEARCHER_LIMITS.perStudyPerHour) {
      // Nothing was sent: the sender may try again once the study's hour is over.
      await uncountSends(db, 'notify_sender', [sender]);
      throw tooManyRequests(NOTIFY_RESEARCHER_MESSAGES.tooManyForStudy, 'TOO_MANY_MESSAGES');
    }
  }

  function toStudy(
    row: { study: repo.StudyRow; ownerName: string; ownerEmail: string; participantCount: number },
    role: repo.MemberRole,
    collaborators: string[],
  ): Study {
    const { study } = row;
    return {
      id: study.id,
      name: study.name,
      description: study.description,
      duration: study.duration,
      studyCode: study.studyCode,
      status: study.status,
      participantCount: row.participantCount,
      createdAt: study.createdAt.toISOString(),
      role,
      ownerName: row.ownerName || row.ownerEmail,
      // Only the owner ever sees the study password.
      ...(role === 'main' ? { password: decryptPassword(study) } : {}),
      hasPassword: study.passwordEncrypted !== null,
      collaborators,
      settings: study.settings,
    };
  }

  /** 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), unique for ever. */
  async function newStudyCode(): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      let code = '';
      for (let i = 0; i < STUDY_CODE.generatedLength; i++)
        code += STUDY_CODE_ALPHABET[randomInt(STUDY_CODE_ALPHABET.length)];
      if (!(await repo.studyCodeTaken(db, code))) return code;
    }
    throw new Error('could not find a free study code');
  }

  /**
   * The collaborator mail of study creation. People who became members at once are told they
   * already have access; everyone else gets the code, the password and the join link.
   */
  async function inviteCollaborator(
    study: repo.StudyRow,
    email: string,
    inviterName: string,
    alreadyMember: boolean,
  ) {
    const subject = `Collaborator Invitation: ${study.name}`;
    if (alreadyMember) {
      const mail = renderEmail({
        title: subject,
        preheader: `${inviterName} added you to ${study.name}`,
        paragraphs: [
          `${inviterName} added you as a collaborator on the research study "${study.name}".`,
          'You already have access: the study is listed under your collaborative studies on the research dashboard. There is nothing to join.',
        ],
        action: {
          label: 'Open the study',
          url: `${config.publicUrl}/researcher/study/${study.id}`,
        },
      });
      await messaging.queueEmail('collaborator_added', { to: email, subject, ...mail });
      return;
    }
    const password = decryptPassword(study);
    const link = new URL(`${config.publicUrl}/researcher/dashboard`);
    link.searchParams.set('code', study.studyCode);
    if (password) link.searchParams.set('password', password);
    const mail = renderEmail({
      title: subject,
      preheader: `${inviterName} invited you to collaborate on ${study.name}`,
      paragraphs: [
        `${inviterName} invited you to collaborate on the research study "${study.name}".`,
        `Study code: ${study.studyCode}`,
        ...(password ? [`Study password: ${password}`] : []),
        'Open the research dashboard and choose "Join Study" with this code and password. The link below fills them in for you. If you do not have an approved researcher account yet, apply for one first.',
      ],
      action: { label: 'Join the study', url: link.toString() },
    });
    await messaging.queueEmail('collaborator_invitation', { to: email, subject, ...mail });
  }

  /** An approved researcher whose address is proven (e-mail confirmed) — never by address alone. */
  async function approvedVerifiedResearcher(
    tx: Parameters<typeof findUserByEmail>[0],
    email: string,
  ) {
    const user = await findUserByEmail(tx, email);
    if (user?.role !== 'researcher' || !user.emailVerifiedAt) return undefined;
    const application = await findLiveApplicationOfUser(tx, user.id);
    return application?.status === 'approved' ? user : undefined;
  }

  return {
    bucketOf,

    /** The study password for mail to collaborators; never sent to the browser for that. */
    passwordOf: (study: repo.StudyRow) => decryptPassword(study),

    memberEmails: (studyId: string) => repo.memberEmails(db, studyId),

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

    async get(access: StudyAccess): Promise<Study> {
      const row = await repo.studyWithOwner(db, access.study.id);
      if (!row) throw notFound(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND');
      return toStudy(row, access.role, row.collaborators);
    },

    async create(owner: UserRow, input: CreateStudyInput, ctx: RequestContext): Promise<Study> {
      const parsed = createStudySchema.parse(input);
      const studyCode = await newStudyCode();
      const invitees = [...new Set(parsed.collaborators.map((e) => e.trim().toLowerCase()))].filter(
        (e) => e && e !== owner.email,
      );
      const addedAtOnce = new Set<string>();
      const study = await db.transaction(async (tx) => {
        const row = await repo.insertStudy(tx, {
          name: parsed.name,
          description: parsed.description || null,
          duration: parsed.duration || null,
          studyCode,
          passwordEncrypted: parsed.password ? cipher.encrypt(parsed.password, PASSWORD_AD) : null,
          settings: parsed.settings,
          ownerId: owner.id,
        });
        await repo.addMember(tx, row.id, owner.id, 'main');
        for (const email of invitees) {
          // An approved researcher with a confirmed address becomes a collaborator at once;
          // anyone else when they join with code and password.
          const user = await approvedVerifiedResearcher(tx, email);
          if (user) {
            await repo.addMember(tx, row.id, user.id, 'collab');
            addedAtOnce.add(email);
          }
          await repo.recordInvitation(tx, row.id, email, owner.id, Boolean(user));
        }
        await recordAudit(tx, {
          actorId: owner.id,
          action: 'study.created',
          targetType: 'study',
          targetId: row.id,
          details: { collaboratorsInvited: invitees.length },
          ip: ctx.ip,
        });
        return row;
      });
      // Storage comes after the commit: a failure here is retried when the bucket is first used.
      await objectStore.ensureBucket(bucketOf(study.id)).catch(() => {});
      const inviterName = owner.displayName || owner.email;
      for (const email of invitees)
        await inviteCollaborator(study, email, inviterName, addedAtOnce.has(email));
      const row = await repo.studyWithOwner(db, study.id);
      if (!row) throw notFound(STUDY_MESSAGES.notFound);
      return toStudy(row, 'main', invitees);
    },

    async update(
      access: StudyAccess,
      user: UserRow,
      input: UpdateStudyInput,
      ctx: RequestContext,
    ): Promise<Study> {
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', 'Only the study owner can change the study.');
      const changes: Parameters<typeof repo.updateStudy>[2] = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description || null;
      if (input.duration !== undefined) changes.duration = input.duration || null;
      if (input.settings !== undefined)
        changes.settings = { ...access.study.settings, ...input.settings };
      if (input.password !== undefined) {
        const stored = decryptPassword(access.study);
        // A study without a password takes a first one with no current password; a current
        // password sent anyway cannot match anything, so it is refused rather than ignored.
        const wrong =
          stored === null
            ? Boolean(input.currentPassword)
            : input.currentPassword === undefined || !sameSecret(input.currentPassword, stored);
        if (wrong) {
          throw new AppError(
            400,
            'INVALID_CURRENT_PASSWORD',
            STUDY_MESSAGES.currentPasswordIncorrect,
          );
        }
        changes.passwordEncrypted = cipher.encrypt(input.password, PASSWORD_AD);
      }
      if (Object.keys(changes).length === 0)
        throw badRequest('Nothing to update.', 'NOTHING_TO_UPDATE');
      await db.transaction(async (tx) => {
        await repo.updateStudy(tx, access.study.id, changes);
        await recordAudit(tx, {
          actorId: user.id,
          action: input.password !== undefined ? 'study.password_changed' : 'study.updated',
          targetType: 'study',
          targetId: access.study.id,
          details: {
            fields: Object.keys(changes).map((k) => (k === 'passwordEncrypted' ? 'password' : k)),
          },
          ip: ctx.ip,
        });
      });
      return this.get(access);
    },

    async remove(access: StudyAccess, user: UserRow, ctx: RequestContext) {
      if (access.role !== 'main')
        throw new AppError(403, 'OWNER_ONLY', 'Only the study owner can delete the study.');
      await db.transaction(async (tx) => {
        await repo.updateStudy(tx, access.study.id, { deletedAt: new Date() });
        await recordAudit(tx, {
          actorId: user.id,
          action: 'study.deleted',
          targetType: 'study',
          targetId: access.study.id,
          ip: ctx.ip,
        });
      });
    },

    /** Joins as collaborator with code + password; one answer for a wrong code or a wrong password. */
    async join(
      user: UserRow,
      input: { studyCode: string; password: string },
      ctx: RequestContext,
    ): Promise<{ study: Study; alreadyMember: boolean }> {
      const key = sha256Hex(`study_join:${user.id}`);
      const since = new Date(Date.now() - JOIN_WINDOW_MS);
      if ((await recentAuthFailures(db, 'study_join', key, since)).length >= MAX_JOIN_FAILURES) {
        throw new AppError(
          429,
          'TOO_MANY_ATTEMPTS',
          'Too many failed attempts to join a study. Please try again in 15 minutes.',
        );
      }
      const found = await repo.findLiveStudyByCode(db, input.studyCode.trim().toUpperCase());
      // A member following an old invitation link (the password changed since) still lands on
      // the study: membership, not the password, is what counts for them.
      const existing = found ? await repo.membershipOf(db, found.study.id, user.id) : undefined;
      if (found && existing === 'collab')
        return {
          study: await this.get({ study: found.study, role: 'collab' }),
          alreadyMember: true,
        };
      const stored = found ? decryptPassword(found.study) : null;
      if (!found || stored === null || !sameSecret(input.password, stored)) {
        await recordAuthFailure(db, 'study_join', key);
        throw badRequest(STUDY_MESSAGES.joinFailed, 'INVALID_STUDY_CREDENTIALS');
      }
      const { study } = found;
      const current = await repo.membershipOf(db, study.id, user.id);
      if (current === 'main') throw conflict('You own this study already.', 'ALREADY_OWNER');
      if (!current) {
        await db.transaction(async (tx) => {
          await repo.addMember(tx, study.id, user.id, 'collab');
          await repo.acceptInvitation(tx, study.id, user.email);
          await recordAudit(tx, {
            actorId: user.id,
            action: 'study.joined',
            targetType: 'study',
            targetId: study.id,
            ip: ctx.ip,
          });
        });
      }
      return { study: await this.get({ study, role: 'collab' }), alreadyMember: false };
    },

    /** Public look-up by code (participant enrolment, join dialog). */
    async lookup(studyCode: string) {
      const found = await repo.findLiveStudyByCode(db, studyCode);
      if (!found)
        throw notFound('Study not found. Please check the study code.', 'STUDY_NOT_FOUND');
      return {
        studyName: found.study.name,
        studyDescription: found.study.description,
        studyCode: found.study.studyCode,
        researcherName: found.ownerName || ENROLL_TEXTS.defaultResearcher,
      };
    },

    /** A participant's message to the study owner, by e-mail. */
    async notifyResearcher(
      input: { studyCode: string; participantEmail: string; message: string },
      ctx: RequestContext,
    ) {
      const found = await repo.findLiveStudyByCode(db, input.studyCode);
      if (!found)
        throw notFound('Study not found. Please check the study code.', 'STUDY_NOT_FOUND');
      await countParticipantMessage(found.study.id, input.participantEmail);
      const mail = renderEmail({
        title: `A participant wrote about ${found.study.name}`,
        paragraphs: [
          `A participant (${input.participantEmail}) sent a message about the study "${found.study.name}" (code ${found.study.studyCode}):`,
          input.message,
        ],
      });
      await messaging.queueEmail('participant_message', {
        to: found.ownerEmail,
        subject: `Message from a participant: ${found.study.name}`,
        replyTo: input.participantEmail,
        ...mail,
      });
      await recordAudit(db, {
        actorId: null,
        action: 'study.participant_message',
        targetType: 'study',
        targetId: found.study.id,
        ip: ctx.ip,
      });
    },

    /** A signed, expiring link to the page that lists the study's files. */
    async bucketUrl(access: StudyAccess, user: UserRow, ctx: RequestContext) {
      const bucket = bucketOf(access.study.id);
      await objectStore.ensureBucket(bucket);
      await recordAudit(db, {
        actorId: user.id,
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
