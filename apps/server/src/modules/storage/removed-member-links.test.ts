import { BUCKET_PAGE_TEXTS } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../test/auth-helpers.js';
import { bucketPageLink, visit } from '../../test/bucket-fixtures.js';
import { useTestApp } from '../../test/test-app.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';

const FILE = '{"steps":8042}';

describe('signed links of a member removed from the study', () => {
  const t = useTestApp();

  const get = (url: URL) => visit(t.app, url);

  /** The member's "Go to Bucket" link, and the download link of the one file on that page. */
  async function linksOf(token: string, studyId: string) {
    const listing = await bucketPageLink(t.app, token, studyId);
    const page = await get(listing);
    expect(page.statusCode, page.body).toBe(200);
    const href = /href="([^"]+)"/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
    if (!href) throw new Error('no download link on the page');
    const download = new URL(href);
    const file = await get(download);
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(FILE);
    return { listing, download };
  }

  it('stop working as soon as the collaborator is removed; the owner’s keep working', async () => {
    const { owner, collaborator, study } = await studyWithParticipants(t.app);
    const bucket = `study-${study.id}-data`;
    await t.app.platform.objectStore.ensureBucket(bucket);
    await t.app.platform.objectStore.putObject(bucket, 'exports/run-1/steps.json', FILE, {
      contentType: 'application/json',
    });
    const theirs = await linksOf(collaborator.token, study.id);
    const mine = await linksOf(owner.token, study.id);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/studies/${study.id}/members/${collaborator.user.id}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode, removed.body).toBe(200);

    const page = await get(theirs.listing);
    expect(page.statusCode).toBe(403);
    expect(page.json()).toMatchObject({
      success: false,
      code: 'NOT_A_MEMBER',
      message: BUCKET_PAGE_TEXTS.notAMember,
    });
    expect(page.body).not.toContain('steps.json');
    const file = await get(theirs.download);
    expect(file.statusCode).toBe(403);
    expect(file.json()).toMatchObject({ code: 'NOT_A_MEMBER' });
    expect(file.body).not.toContain('8042');

    // Naming someone else in the link breaks its signature.
    for (const link of [theirs.listing, theirs.download]) {
      const forged = new URL(link);
      forged.searchParams.set('user', owner.user.id);
      const res = await get(forged);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('SIGNED_URL_INVALID');
    }
    // A link that names nobody is no link.
    const anonymous = new URL(theirs.download);
    anonymous.searchParams.delete('user');
    expect((await get(anonymous)).statusCode).toBe(403);

    expect((await get(mine.listing)).statusCode).toBe(200);
    const kept = await get(mine.download);
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(FILE);
  });
});
