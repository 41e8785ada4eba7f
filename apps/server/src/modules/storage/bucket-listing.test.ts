import { describe, expect, it } from 'vitest';
import { bucketPageLink, ownerWithStudy, visit } from '../../test/bucket-fixtures.js';
import { useTestApp } from '../../test/test-app.js';

describe('the "Go to Bucket" page', () => {
  const t = useTestApp();

  it('shows file sizes as every document list does: KB with 1 decimal, MB with 2', async () => {
    const { owner, study, bucket } = await ownerWithStudy(t.app, 'Sizes');
    const store = t.app.platform.objectStore;
    await store.putObject(bucket, 'a-tiny.json', '{"steps":8042}', {
      contentType: 'application/json',
    });
    await store.putObject(bucket, 'b-small.csv', 'x'.repeat(1536), { contentType: 'text/csv' });
    await store.putObject(bucket, 'c-large.csv', Buffer.alloc(Math.round(2.35 * 1024 * 1024)), {
      contentType: 'text/csv',
    });

    const page = await visit(t.app, await bucketPageLink(t.app, owner.token, study.id));
    expect(page.statusCode).toBe(200);
    const sizes = [...page.body.matchAll(/<td role="cell" class="n"[^>]*>([^<]*)<\/td>/g)].map(
      (m) => m[1],
    );
    // A 14-byte file is not '14 B': the KB form shows at least its smallest step.
    expect(sizes).toEqual(['0.1 KB', '1.5 KB', '2.35 MB']);
    expect(page.body).toContain(
      '<th role="columnheader">File</th><th role="columnheader">Size</th><th role="columnheader">Last modified</th>',
    );
  });
});
