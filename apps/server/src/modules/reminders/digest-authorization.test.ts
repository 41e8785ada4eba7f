import { beforeAll, describe, expect, it } from 'vitest';
import {
  memberStatus,
  STUDY_ROLES,
  type StudyRole,
  studyRoleMatrix,
} from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * The digest choice against every kind of caller: members read and set their own (the owner's
 * default is on, a collaborator's off); everyone else 401/403, and one member's choice is not
 * another's.
 */
describe('authorization matrix of the digest choice', () => {
  const t = useTestApp();
  let send: Awaited<ReturnType<typeof studyRoleMatrix>>['send'];
  let studyId: string;

  beforeAll(async () => {
    ({ send, studyId } = await studyRoleMatrix(t.app, 'invited'));
  });

  const defaults: Partial<Record<StudyRole, boolean>> = { owner: true, collaborator: false };

  it.each(STUDY_ROLES)('GET and PUT /api/studies/:id/digest as %s', async (role) => {
    const expected = memberStatus(200)(role);
    const read = await send(role, 'GET', `/api/studies/${studyId}/digest`);
    expect(read.statusCode).toBe(expected);
    if (expected === 200) expect(read.json()).toEqual({ success: true, enabled: defaults[role] });

    const flipped = !defaults[role];
    const write = await send(role, 'PUT', `/api/studies/${studyId}/digest`, { enabled: flipped });
    expect(write.statusCode).toBe(expected);
    if (expected !== 200) return;
    expect(write.json()).toEqual({ success: true, enabled: flipped });
    const again = await send(role, 'GET', `/api/studies/${studyId}/digest`);
    expect(again.json()).toEqual({ success: true, enabled: flipped });
  });

  it('keeps each member to their own choice', async () => {
    await send('owner', 'PUT', `/api/studies/${studyId}/digest`, { enabled: true });
    await send('collaborator', 'PUT', `/api/studies/${studyId}/digest`, { enabled: false });
    expect((await send('owner', 'GET', `/api/studies/${studyId}/digest`)).json().enabled).toBe(
      true,
    );
    expect(
      (await send('collaborator', 'GET', `/api/studies/${studyId}/digest`)).json().enabled,
    ).toBe(false);
  });

  it('refuses a body without a boolean', async () => {
    const bad = await send('owner', 'PUT', `/api/studies/${studyId}/digest`, { enabled: 'yes' });
    expect(bad.statusCode).toBe(400);
  });
});
