import { timingSafeEqual } from 'node:crypto';
import { bucketNameForStudy, STUDY_MESSAGES } from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { AppError, notFound } from '../../errors.js';
import { type Cipher, sha256Hex } from '../../platform/crypto.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import type { Messaging } from '../messaging/index.js';
import type * as repo from './studies.repository.js';

/** What the studies service's parts share: dependencies, the membership rule, the password. */

export interface StudiesDeps {
  db: Db;
  config: AppConfig;
  cipher: Cipher;
  messaging: Messaging;
  objectStore: ObjectStore;
}

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

/** The study password is stored encrypted, bound to this purpose. */
const PASSWORD_AD = 'studies.password';

export const encryptPassword = (cipher: Cipher, password: string) =>
  cipher.encrypt(password, PASSWORD_AD);

export const decryptPassword = (cipher: Cipher, study: repo.StudyRow) =>
  study.passwordEncrypted ? cipher.decrypt(study.passwordEncrypted, PASSWORD_AD) : null;

/** Compares two secrets in constant time (their hashes have one length whatever the input). */
export const sameSecret = (a: string, b: string) => {
  const left = Buffer.from(sha256Hex(a), 'hex');
  const right = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(left, right);
};
