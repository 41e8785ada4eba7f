import { beforeAll, describe, expect, it } from 'vitest';
import {
  applicationFor,
  bearer,
  createMaster,
  researcherWithApplication,
  someAddress,
} from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

/**
 * 'Total Applications' on the master dashboard is the `limit=1` count without a status: the
 * history of applications, which a reset for resubmission must not shrink.
 */
describe('total applications count', () => {
  const t = useTestApp();
  let master: { token: string };
  beforeAll(async () => {
    master = await createMaster(t.app);
  });

  const count = async (query: string) => {
    const res = await t.app.inject({
      url: `/api/admin/researcher-applications?${query}`,
      headers: bearer(master.token),
    });
    expect(res.statusCode).toBe(200);
    return res.json().totalCount as number;
  };

  it('keeps a reset application in the total, and counts its resubmission too', async () => {
    await researcherWithApplication(t.app, 'pending');
    const applicant = await researcherWithApplication(t.app, 'rejected', master);
    expect(await count('limit=1')).toBe(2);
    expect(await count('status=rejected&limit=1')).toBe(1);

    const reset = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/researcher-applications/${applicant.applicationId}/reset`,
      headers: bearer(master.token),
    });
    expect(reset.statusCode).toBe(200);
    // The rejected list no longer shows it, the total still counts it.
    expect(await count('status=rejected&limit=1')).toBe(0);
    expect(await count('limit=1')).toBe(2);

    const again = await t.app.inject({
      method: 'POST',
      url: '/api/admin/researcher-applications',
      headers: bearer(applicant.token),
      payload: applicationFor(applicant.email),
      remoteAddress: someAddress(),
    });
    expect(again.statusCode).toBe(201);
    expect(await count('status=pending&limit=1')).toBe(2);
    expect(await count('limit=1')).toBe(3);
  });
});
