import type { AuthUser, UserProfile } from '@research/contracts';
import type * as repo from './auth.repository.js';

/** How an account is shown to its owner: the signed-in user and the profile. */

/** Whether the account's owner proved the address (the rule behind applications and e-mail matches). */
export const isEmailVerified = (user: Pick<repo.UserRow, 'emailVerifiedAt'>): boolean =>
  user.emailVerifiedAt !== null;

export function toAuthUser(user: repo.UserRow): AuthUser {
  return {
    id: user.id,
    uid: user.id,
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoUrl,
    role: user.role,
  };
}

const splitName = (displayName: string) => {
  const [firstName = '', ...rest] = displayName.trim().split(/\s+/).filter(Boolean);
  return { firstName, lastName: rest.join(' ') };
};

/**
 * The profile; a master's id is the literal 'master'. A researcher's status,
 * names and institution come from their current application ('noprofile' without one).
 */
export function toProfile(user: repo.UserRow, application?: repo.ApplicationOfUser): UserProfile {
  const names = splitName(user.displayName);
  if (user.role === 'master') {
    const blank = { institution: null, department: null, position: null, approvedAt: null };
    return {
      id: 'master',
      email: user.email,
      ...names,
      role: 'master',
      status: 'approved',
      ...blank,
      isMasterAccount: true,
      emailVerified: isEmailVerified(user),
    };
  }
  return {
    id: user.id,
    email: user.email,
    firstName: application?.firstName ?? names.firstName,
    lastName: application?.lastName ?? names.lastName,
    role: 'researcher',
    status: application?.status ?? 'noprofile',
    institution: application?.institution ?? null,
    department: application?.department ?? null,
    position: application?.position ?? null,
    approvedAt:
      application?.status === 'approved' ? (application.reviewedAt?.toISOString() ?? null) : null,
    isMasterAccount: false,
    emailVerified: isEmailVerified(user),
  };
}
