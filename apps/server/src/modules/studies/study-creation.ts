import { randomInt } from 'node:crypto';
import {
  type CreateStudyInput,
  createStudySchema,
  STUDY_CODE,
  STUDY_CODE_ALPHABET,
  STUDY_MESSAGES,
  type Study,
} from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../errors.js';
import { renderEmail } from '../../platform/mail-templates.js';
import { findLiveApplicationOfUser } from '../applications/index.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import { findUserByEmail, type UserRow } from '../auth/index.js';
import * as repo from './studies.repository.js';
import {
  decryptPassword,
  encryptPassword,
  type StudiesDeps,
  studyBucket,
} from './studies-shared.js';
import type { StudyView } from './study-view.js';

type ParsedStudy = ReturnType<typeof createStudySchema.parse>;

/** Creating a study: its code, its first members, and the mail to the collaborators it names. */
export function createStudyCreation(deps: StudiesDeps, view: StudyView) {
  const { db, config, cipher, messaging, objectStore } = deps;

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

  /** An approved researcher whose address is proven (e-mail confirmed) — never by address alone. */
  async function approvedVerifiedResearcher(tx: DbOrTx, email: string) {
    const user = await findUserByEmail(tx, email);
    if (user?.role !== 'researcher' || !user.emailVerifiedAt) return undefined;
    const application = await findLiveApplicationOfUser(tx, user.id);
    return application?.status === 'approved' ? user : undefined;
  }

  /** Tells someone who became a member at once that they already have access. */
  async function mailAddedMember(study: repo.StudyRow, email: string, inviterName: string) {
    const subject = `Collaborator Invitation: ${study.name}`;
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
  }

  /** The code, the password and the join link, for someone who joins later. */
  async function mailInvitation(study: repo.StudyRow, email: string, inviterName: string) {
    const subject = `Collaborator Invitation: ${study.name}`;
    const password = decryptPassword(cipher, study);
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

  /**
   * The study row, its owner and its invitations, in the caller's transaction. Returns the
   * invitees that became members at once.
   */
  async function insertStudy(
    tx: DbOrTx,
    owner: UserRow,
    parsed: ParsedStudy,
    studyCode: string,
    invitees: string[],
    ctx: RequestContext,
  ) {
    const row = await repo.insertStudy(tx, {
      name: parsed.name,
      description: parsed.description || null,
      duration: parsed.duration || null,
      studyCode,
      passwordEncrypted: parsed.password ? encryptPassword(cipher, parsed.password) : null,
      settings: parsed.settings,
      ownerId: owner.id,
    });
    await repo.addMember(tx, row.id, owner.id, 'main');
    const addedAtOnce = new Set<string>();
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
      studyId: row.id,
      action: 'study.created',
      targetType: 'study',
      targetId: row.id,
      details: { collaboratorsInvited: invitees.length },
      ip: ctx.ip,
    });
    return { study: row, addedAtOnce };
  }

  return {
    async create(owner: UserRow, input: CreateStudyInput, ctx: RequestContext): Promise<Study> {
      const parsed = createStudySchema.parse(input);
      const studyCode = await newStudyCode();
      const invitees = [...new Set(parsed.collaborators.map((e) => e.trim().toLowerCase()))].filter(
        (e) => e && e !== owner.email,
      );
      const { study, addedAtOnce } = await db.transaction((tx) =>
        insertStudy(tx, owner, parsed, studyCode, invitees, ctx),
      );
      // Storage comes after the commit: a failure here is retried when the bucket is first used.
      await objectStore.ensureBucket(studyBucket(config, study.id)).catch(() => {});
      const inviterName = owner.displayName || owner.email;
      for (const email of invitees) {
        if (addedAtOnce.has(email)) await mailAddedMember(study, email, inviterName);
        else await mailInvitation(study, email, inviterName);
      }
      const row = await repo.studyWithOwner(db, study.id);
      if (!row) throw notFound(STUDY_MESSAGES.notFound);
      return view.toStudy(row, 'main', invitees);
    },
  };
}
