import { STUDY_MESSAGES, type Study } from '@research/contracts';
import { AppError, badRequest, conflict } from '../../errors.js';
import { sha256Hex } from '../../platform/crypto.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import { recentAuthFailures, recordAuthFailure, type UserRow } from '../auth/index.js';
import * as repo from './studies.repository.js';
import { decryptPassword, type StudiesDeps, sameSecret } from './studies-shared.js';
import type { StudyView } from './study-view.js';

const JOIN_WINDOW_MS = 15 * 60_000;
const MAX_JOIN_FAILURES = 10;

/** A researcher joins a study as collaborator with its code and password. */
export function createStudyJoining({ db, cipher }: StudiesDeps, view: StudyView) {
  /** Failed joins are counted with the sign-in failures: too many in the window and we refuse. */
  async function assertNotGuessing(key: string) {
    const since = new Date(Date.now() - JOIN_WINDOW_MS);
    if ((await recentAuthFailures(db, 'study_join', key, since)).length >= MAX_JOIN_FAILURES) {
      throw new AppError(
        429,
        'TOO_MANY_ATTEMPTS',
        'Too many failed attempts to join a study. Please try again in 15 minutes.',
      );
    }
  }

  async function addCollaborator(study: repo.StudyRow, user: UserRow, ctx: RequestContext) {
    await db.transaction(async (tx) => {
      await repo.addMember(tx, study.id, user.id, 'collab');
      await repo.acceptInvitation(tx, study.id, user.email);
      await recordAudit(tx, {
        actorId: user.id,
        studyId: study.id,
        action: 'study.joined',
        targetType: 'study',
        targetId: study.id,
        ip: ctx.ip,
      });
    });
  }

  return {
    /** Joins as collaborator with code + password; one answer for a wrong code or a wrong password. */
    async join(
      user: UserRow,
      input: { studyCode: string; password: string },
      ctx: RequestContext,
    ): Promise<{ study: Study; alreadyMember: boolean }> {
      const key = sha256Hex(`study_join:${user.id}`);
      await assertNotGuessing(key);
      const found = await repo.findLiveStudyByCode(db, input.studyCode.trim().toUpperCase());
      // A member following an old invitation link (the password changed since) still lands on
      // the study: membership, not the password, is what counts for them.
      const existing = found ? await repo.membershipOf(db, found.study.id, user.id) : undefined;
      if (found && existing === 'collab')
        return {
          study: await view.get({ study: found.study, role: 'collab' }),
          alreadyMember: true,
        };
      const stored = found ? decryptPassword(cipher, found.study) : null;
      if (!found || stored === null || !sameSecret(input.password, stored)) {
        await recordAuthFailure(db, 'study_join', key);
        throw badRequest(STUDY_MESSAGES.joinFailed, 'INVALID_STUDY_CREDENTIALS');
      }
      const { study } = found;
      const current = await repo.membershipOf(db, study.id, user.id);
      if (current === 'main') throw conflict('You own this study already.', 'ALREADY_OWNER');
      if (!current) await addCollaborator(study, user, ctx);
      return { study: await view.get({ study, role: 'collab' }), alreadyMember: false };
    },
  };
}
