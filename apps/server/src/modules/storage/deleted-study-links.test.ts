import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/auth-helpers.js';
import { bucketPageLink, ownerWithStudy, visit } from '../../test/bucket-fixtures.js';
import { useTestApp } from '../../test/test-app.js';

describe('signed links of a deleted study', () => {
  const t = useTestApp();

  it('stop working as soon as the study is deleted', async () => {
    const { owner, study, bucket } = await ownerWithStudy(t.app, 'Soon gone');
    await t.app.platform.objectStore.putObject(bucket, 'a.json', '{}', {
      contentType: 'application/json',
    });
    const url = await bucketPageLink(t.app, owner.token, study.id);
    const listing = await visit(t.app, url);
    expect(listing.statusCode).toBe(200);
    const link = /href="([^"]+)"/.exec(listing.body)?.[1]?.replaceAll('&amp;', '&') as string;
    const fileUrl = new URL(link);
    expect((await visit(t.app, fileUrl)).statusCode).toBe(200);

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/studies/${study.id}`,
      headers: bearer(owner.token),
    });
    expect(deleted.statusCode).toBe(200);

    const after = await visit(t.app, url);
    expect(after.statusCode).toBe(404);
    expect(after.json().message).toBe(
      'This study has been deleted. Its files are no longer available.',
    );
    expect(after.body).not.toContain('a.json');
    const file = await visit(t.app, fileUrl);
    expect(file.statusCode).toBe(404);
    expect(file.body).not.toBe('{}');
  });
});
