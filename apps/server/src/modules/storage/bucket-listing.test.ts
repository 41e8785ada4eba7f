import { describe, expect, it } from 'vitest';
import { bearer, createMaster, researcherWithApplication } from '../../test/auth-helpers.js';
import { useTestApp } from '../../test/test-app.js';

describe('the "Go to Bucket" page', () => {
  const t = useTestApp();

  it('shows file sizes as every document list does: KB with 1 decimal, MB with 2', async () => {
    const master = await createMaster(t.app);
    const owner = await researcherWithApplication(t.app, 'approved', master);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/create-study',
      headers: bearer(owner.token),
      payload: { name: 'Sizes' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { study } = created.json();
    const bucket = `study-${study.id}-data`;
    const store = t.app.platform.objectStore;
    await store.putObject(bucket, 'a-tiny.json', '{"steps":8042}', {
      contentType: 'application/json',
    });
    await store.putObject(bucket, 'b-small.csv', 'x'.repeat(1536), { contentType: 'text/csv' });
    await store.putObject(bucket, 'c-large.csv', Buffer.alloc(Math.round(2.35 * 1024 * 1024)), {
      contentType: 'text/csv',
    });

    const signed = await t.app.inject({
      url: `/api/studies/${study.id}/bucket-signed-url`,
      headers: bearer(owner.token),
    });
    const url = new URL(signed.json().signedUrl);
    const page = await t.app.inject({ url: `${url.pathname}${url.search}` });
    expect(page.statusCode).toBe(200);
    const sizes = [...page.body.matchAll(/<td class="n">([^<]*)<\/td>/g)].map((m) => m[1]);
    // A 14-byte file is not '14 B': the KB form shows at least its smallest step.
    expect(sizes).toEqual(['0.1 KB', '1.5 KB', '2.35 MB']);
    expect(page.body).toContain('<th>File</th><th>Size</th><th>Last modified</th>');
  });
});
