import { describe, expect, it } from 'vitest';
import { bearer, createMaster, researcherWithApplication } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('signed links of a deleted study', () => {
  const t = useTestApp();

  it('stop working as soon as the study is deleted', async () => {
    const master = await createMaster(t.app);
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: { name: 'Soon gone' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { study } = created.json();
    await t.app.platform.objectStore.putObject(`study-${study.id}-data`, 'a.json', '{}', {
      contentType: 'application/json',
    });
    const signed = await t.app.inject({
      url: `/api/studies/${study.id}/bucket-signed-url`,
      headers: bearer(owner.token),
    });
    const url = new URL(signed.json().signedUrl);
    const listing = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(listing.statusCode).toBe(200);
    const link = /href="([^"]+)"/.exec(listing.body)?.[1]?.replaceAll('&amp;', '&') as string;
    const fileUrl = new URL(link);
    expect((await t.app.inject({ url: fileUrl.pathname + fileUrl.search })).statusCode).toBe(200);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/studies/${study.id}`,
      headers: bearer(owner.token),
    });
    expect(deleted.statusCode).toBe(200);

    const after = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(after.statusCode).toBe(404);
    expect(after.json().message).toBe(
      'This study has been deleted. Its files are no longer available.',
    );
    expect(after.body).not.toContain('a.json');
    const file = await t.app.inject({ url: fileUrl.pathname + fileUrl.search });
    expect(file.statusCode).toBe(404);
    expect(file.body).not.toBe('{}');
  });
});
