import type { FastifyInstance } from 'fastify';
import { bearer, createMaster, researcherWithApplication, someAddress } from './auth-helpers.js';

/** The kinds of caller the study authorization matrices try every route as. */
export type StudyRole =
  | 'anonymous'
  | 'pending researcher'
  | 'approved non-member'
  | 'collaborator'
  | 'owner'
  | 'master';

export const STUDY_ROLES: readonly StudyRole[] = [
  'anonymous',
  'pending researcher',
  'approved non-member',
  'collaborator',
  'owner',
  'master',
];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The status a study member route answers `role` with: signed out 401; the owner (and the
 * collaborator, unless the route is the owner's alone) `ok`; everyone else 403, since pending
 * researchers and the master do not work with studies and non-members are not in this one.
 */
export const memberStatus =
  (ok: number, ownerOnly = false) =>
  (role: StudyRole) =>
    role === 'anonymous'
      ? 401
      : role === 'owner' || (role === 'collaborator' && !ownerOnly)
        ? ok
        : 403;

/**
 * One account of each role and a study ("Matrix study", password "matrix-pass") of the owner's,
 * with the collaborator a member: invited at creation, or joining later with code and password
 * (the path a colleague takes on their own).
 */
export async function studyRoleMatrix(
  app: FastifyInstance,
  collaboratorJoins: 'invited' | 'with the code',
) {
  const master = await createMaster(app);
  const owner = await researcherWithApplication(app, 'approved', master);
  const collaborator = await researcherWithApplication(app, 'approved', master);
  const tokens = new Map<StudyRole, string | null>([
    ['anonymous', null],
    ['master', master.token],
    ['owner', owner.token],
    ['collaborator', collaborator.token],
    ['pending researcher', (await researcherWithApplication(app, 'pending')).token],
    ['approved non-member', (await researcherWithApplication(app, 'approved', master)).token],
  ]);
  const send = (
    role: StudyRole,
    method: Method,
    url: string,
    payload?: Record<string, unknown>,
  ) => {
    const token = tokens.get(role);
    return app.inject({
      method,
      url,
      ...(token ? { headers: bearer(token) } : {}),
      ...(payload ? { payload } : {}),
      remoteAddress: someAddress(),
    });
  };
  const invited = collaboratorJoins === 'invited' ? { collaborators: [collaborator.email] } : {};
  const created = await send('owner', 'POST', '/api/auth/create-study', {
    name: 'Matrix study',
    password: 'matrix-pass',
    ...invited,
  });
  const { id: studyId, studyCode } = created.json().study as { id: string; studyCode: string };
  if (collaboratorJoins === 'with the code') {
    await send('collaborator', 'POST', '/api/auth/join-study', {
      studyCode,
      password: 'matrix-pass',
    });
  }
  return { tokens, send, studyId, studyCode, collaboratorId: collaborator.user.id };
}
