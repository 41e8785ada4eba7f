import { STUDY_MESSAGES, type Study } from '@research/contracts';
import { notFound } from '../../errors.js';
import * as repo from './studies.repository.js';
import { decryptPassword, type StudiesDeps, type StudyAccess } from './studies-shared.js';

/** A study as its members see it; only the owner sees the password. */
export function createStudyView({ db, cipher }: Pick<StudiesDeps, 'db' | 'cipher'>) {
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
      ...(role === 'main' ? { password: decryptPassword(cipher, study) } : {}),
      hasPassword: study.passwordEncrypted !== null,
      collaborators,
      settings: study.settings,
    };
  }

  async function get(access: StudyAccess): Promise<Study> {
    const row = await repo.studyWithOwner(db, access.study.id);
    if (!row) throw notFound(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND');
    return toStudy(row, access.role, row.collaborators);
  }

  return { toStudy, get };
}

export type StudyView = ReturnType<typeof createStudyView>;
