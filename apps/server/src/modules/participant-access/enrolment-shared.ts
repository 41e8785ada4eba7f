import {
  ENROLMENT_MESSAGES,
  type ParticipantSession,
  VERIFICATION_MESSAGES,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { StudyRow } from '../studies/index.js';
import type * as verificationRepo from './verification.repository.js';
import type { VerificationService } from './verification.service.js';
import type { WearableAuthUrl } from './wearable-auth-url.js';

/** What the enrolment service's parts share: dependencies, its two refusals, the session view. */

export interface EnrolmentDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  verification: VerificationService;
  wearableAuthUrl: WearableAuthUrl;
  /**
   * Whether the participant's wearable connection holds an access token (never the token). The
   * wearables module answers it; it is passed in because wearables already depends on this
   * module.
   */
  hasWearableAccessToken: (participantId: string) => Promise<boolean>;
}

export const notApproved = () => new AppError(403, 'NOT_APPROVED', ENROLMENT_MESSAGES.notApproved);
export const verificationFailed = () =>
  new AppError(400, 'VERIFICATION_FAILED', VERIFICATION_MESSAGES.failed);

export const sessionView = (
  token: string,
  row: verificationRepo.SessionRow,
  study: StudyRow,
): ParticipantSession => ({
  sessionId: token,
  participantId: row.participantId,
  studyCode: study.studyCode,
  verified: row.verifiedAt !== null,
  expiresAt: row.expiresAt.toISOString(),
});
