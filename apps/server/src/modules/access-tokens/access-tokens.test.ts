import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_MESSAGES, ACCESS_TOKEN_PREFIX } from '@research/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { accessTokens, auditEvents, studyMembers } from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { memberStatus, STUDY_ROLES, studyRoleMatrix } from '../../test/study-role-matrix.js';
import { useTestApp } from '../../test/test-app.js';
import { studyWithParticipants } from '../../test/wearables-kit.js';

const FILE = '{"steps":8042}';
const KEY = 'exports/run-1/steps.json';

async function createToken(
  app: FastifyInstance,
  sessionToken: string,
  studyId: string,
  body: Record<string, unknown> = { name: 'nightly export', expiresInDays: 30 },
) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/studies/${studyId}/access-tokens`,
    headers: bearer(sessionToken),
    payload: body,
    remoteAddress: someAddress(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { token: { id: string; prefix: string; state: string }; secret: string };
}

/** A call as a script makes it: the token as the bearer, from one fixed address. */
const withToken = (app: FastifyInstance, secret: string, url: string, method = 'GET') =>
  app.inject({
    method: method as 'GET',
    url,
    headers: bearer(secret),
    remoteAddress: '203.0.113.7',
  });

const auditOf = (app: FastifyInstance, tokenId: string) =>
  app.platform.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, 'access_token'), eq(auditEvents.targetId, tokenId)));

async function studyWithFile(app: FastifyInstance) {
  const kit = await studyWithParticipants(app);
  await kit.addParticipant({ firstName: 'Robin' });
  const bucket = `study-${kit.study.id}-data`;
  await app.platform.objectStore.ensureBucket(bucket);
  await app.platform.objectStore.putObject(bucket, KEY, FILE, { contentType: 'application/json' });
  return { ...kit, bucket };
}

describe('personal access tokens', () => {
  const t = useTestApp();

  it('live a life: created and shown once, used by a script, listed with their last use, revoked', async () => {
    const { owner, collaborator, study, bucket } = await studyWithFile(t.app);
    const { token, secret } = await createToken(t.app, collaborator.token, study.id);
    expect(secret.startsWith(ACCESS_TOKEN_PREFIX)).toBe(true);
    expect(secret.length).toBeGreaterThanOrEqual(ACCESS_TOKEN_PREFIX.length + 43);
    expect(token).toMatchObject({ state: 'active', prefix: secret.slice(0, 14), mine: true });

    // Only the hash is stored: no column holds the secret.
    const [row] = await t.app.platform.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, token.id));
    expect(row?.tokenHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret.slice(ACCESS_TOKEN_PREFIX.length + 6));
    expect(row?.lastUsedAt).toBeNull();

    const participants = await withToken(t.app, secret, `/api/studies/${study.id}/participants`);
    expect(participants.statusCode, participants.body).toBe(200);
    expect(participants.json().participants.map((p: { firstName: string }) => p.firstName)).toEqual(
      ['Robin'],
    );

    // The file download takes the token instead of a signature, for its study's bucket.
    const file = await withToken(t.app, secret, `/api/storage/objects/${bucket}/${KEY}`);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.body).toBe(FILE);
    const unsigned = await t.app.inject({ url: `/api/storage/objects/${bucket}/${KEY}` });
    expect(unsigned.statusCode).toBe(403);
    expect(unsigned.json().code).toBe('SIGNED_URL_INVALID');

    const listing = await withToken(t.app, secret, `/api/storage/buckets/${bucket}`);
    expect(listing.statusCode, listing.body).toBe(200);
    expect(listing.body).toContain('steps.json');
    const jobs = await withToken(t.app, secret, `/api/studies/${study.id}/extraction-jobs`);
    expect(jobs.statusCode, jobs.body).toBe(200);

    // Listed with its last use, never with its secret.
    const mine = await t.app.inject({
      url: `/api/studies/${study.id}/access-tokens`,
      headers: bearer(collaborator.token),
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).not.toContain(secret);
    expect(mine.json()).toMatchObject({ totalCount: 1, everyone: false });
    const listed = mine.json().tokens[0];
    expect(listed).toMatchObject({ id: token.id, name: 'nightly export', state: 'active' });
    expect(listed.lastUsedAt).not.toBeNull();
    expect(listed.lastUsedIp).toBe('203.0.113.7');

    // The owner sees it, with whose it is.
    const owners = await t.app.inject({
      url: `/api/studies/${study.id}/access-tokens`,
      headers: bearer(owner.token),
    });
    expect(owners.json().everyone).toBe(true);
    expect(owners.json().tokens).toEqual([
      expect.objectContaining({ id: token.id, ownerEmail: collaborator.email, mine: false }),
    ]);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/studies/${study.id}/access-tokens/${token.id}`,
      headers: bearer(collaborator.token),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().token).toMatchObject({ state: 'revoked' });
    expect(revoked.json().token.revokedAt).not.toBeNull();

    const after = await withToken(t.app, secret, `/api/studies/${study.id}/participants`);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({
      code: 'ACCESS_TOKEN_INVALID',
      message: ACCESS_TOKEN_MESSAGES.revoked,
    });
    expect(
      (await withToken(t.app, secret, `/api/storage/objects/${bucket}/${KEY}`)).statusCode,
    ).toBe(401);

    // Each use is on record, with the operation and the address and nothing personal.
    const audit = await auditOf(t.app, token.id);
    const actions = audit.map((event) => event.action);
    expect(actions.filter((action) => action === 'access_token.used')).toHaveLength(4);
    expect(actions).toContain('access_token.created');
    expect(actions).toContain('access_token.revoked');
    const used = audit.find((event) => event.action === 'access_token.used');
    expect(used).toMatchObject({ actorId: collaborator.user.id, ip: '203.0.113.7' });
    expect(used?.details).toEqual({
      operation: 'GET /api/studies/:id/participants',
      studyId: study.id,
    });
    const refused = audit.filter((event) => event.action === 'access_token.refused');
    expect(refused.map((event) => event.details.reason)).toEqual(['revoked', 'revoked']);
  });

  it('is refused on a call that does not take tokens, with a text saying where it works', async () => {
    const { collaborator, study } = await studyWithFile(t.app);
    const { token, secret } = await createToken(t.app, collaborator.token, study.id);
    for (const [method, url] of [
      ['GET', `/api/studies/${study.id}`],
      ['GET', `/api/studies/${study.id}/access-tokens`],
      ['POST', `/api/studies/${study.id}/access-tokens`],
      ['GET', '/api/auth/profile'],
    ] as const) {
      const res = await withToken(t.app, secret, url, method);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: ACCESS_TOKEN_MESSAGES.notAccepted,
      });
    }
    const refused = (await auditOf(t.app, token.id)).filter(
      (event) => event.action === 'access_token.refused',
    );
    expect(refused).toHaveLength(4);
    expect(refused[0]?.details).toMatchObject({ reason: 'operation' });
  });

  it('works for its own study only, even for a member of both', async () => {
    const a = await studyWithFile(t.app);
    const b = await studyWithFile(t.app);
    // The collaborator of A joins B too.
    await t.app.platform.db
      .insert(studyMembers)
      .values({ studyId: b.study.id, userId: a.collaborator.user.id, role: 'collab' });
    const { secret } = await createToken(t.app, a.collaborator.token, a.study.id);
    for (const url of [
      `/api/studies/${b.study.id}/participants`,
      `/api/studies/${b.study.id}/extraction-jobs`,
      `/api/storage/objects/${b.bucket}/${KEY}`,
      `/api/storage/buckets/${b.bucket}`,
    ]) {
      const res = await withToken(t.app, secret, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'ACCESS_TOKEN_WRONG_STUDY',
        message: ACCESS_TOKEN_MESSAGES.wrongStudy,
      });
      expect(res.body).not.toContain('8042');
    }
    expect(
      (await withToken(t.app, secret, `/api/studies/${a.study.id}/participants`)).statusCode,
    ).toBe(200);
  });

  it('is refused once expired, and when unknown', async () => {
    const { collaborator, study } = await studyWithFile(t.app);
    const { token, secret } = await createToken(t.app, collaborator.token, study.id, {
      name: 'short',
      expiresInDays: 7,
    });
    await t.app.platform.db
      .update(accessTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accessTokens.id, token.id));
    const expired = await withToken(t.app, secret, `/api/studies/${study.id}/participants`);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({
      code: 'ACCESS_TOKEN_INVALID',
      message: ACCESS_TOKEN_MESSAGES.expired,
    });
    const list = await t.app.inject({
      url: `/api/studies/${study.id}/access-tokens`,
      headers: bearer(collaborator.token),
    });
    expect(list.json().tokens[0]).toMatchObject({ state: 'expired' });

    const unknown = await withToken(
      t.app,
      `${ACCESS_TOKEN_PREFIX}${'A'.repeat(43)}`,
      `/api/studies/${study.id}/participants`,
    );
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({
      code: 'ACCESS_TOKEN_INVALID',
      message: ACCESS_TOKEN_MESSAGES.unknown,
    });
  });

  it('stops working when its member is removed, and stays dead if they join again', async () => {
    const { owner, collaborator, study, bucket } = await studyWithFile(t.app);
    const { secret } = await createToken(t.app, collaborator.token, study.id);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/studies/${study.id}/members/${collaborator.user.id}`,
      headers: bearer(owner.token),
    });
    expect(removed.statusCode, removed.body).toBe(200);
    for (const url of [
      `/api/studies/${study.id}/participants`,
      `/api/storage/objects/${bucket}/${KEY}`,
    ]) {
      const res = await withToken(t.app, secret, url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'NOT_A_MEMBER',
        message: ACCESS_TOKEN_MESSAGES.notAMember,
      });
    }
    await t.app.platform.db
      .insert(studyMembers)
      .values({ studyId: study.id, userId: collaborator.user.id, role: 'collab' });
    const rejoined = await withToken(t.app, secret, `/api/studies/${study.id}/participants`);
    expect(rejoined.statusCode).toBe(403);
  });

  it('validates the name and the expiry', async () => {
    const { collaborator, study } = await studyWithFile(t.app);
    for (const body of [
      { name: '', expiresInDays: 30 },
      { name: 'x'.repeat(81), expiresInDays: 30 },
      { name: 'ok', expiresInDays: 10 },
      { name: 'ok' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/studies/${study.id}/access-tokens`,
        headers: bearer(collaborator.token),
        payload: body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('lets a member revoke their own tokens and the owner anyone’s', async () => {
    const { owner, collaborator, study } = await studyWithFile(t.app);
    const ownersToken = await createToken(t.app, owner.token, study.id);
    const theirs = await createToken(t.app, collaborator.token, study.id);
    const revoke = (session: string, id: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/studies/${study.id}/access-tokens/${id}`,
        headers: bearer(session),
        remoteAddress: someAddress(),
      });
    const denied = await revoke(collaborator.token, ownersToken.token.id);
    expect(denied.statusCode).toBe(404);
    expect(denied.json().code).toBe('ACCESS_TOKEN_NOT_FOUND');
    const collaboratorList = await t.app.inject({
      url: `/api/studies/${study.id}/access-tokens`,
      headers: bearer(collaborator.token),
    });
    expect(collaboratorList.json().tokens.map((x: { id: string }) => x.id)).toEqual([
      theirs.token.id,
    ]);
    const byOwner = await revoke(owner.token, theirs.token.id);
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    const [row] = await t.app.platform.db
      .select()
      .from(accessTokens)
      .where(eq(accessTokens.id, theirs.token.id));
    expect(row?.revokedBy).toBe(owner.user.id);
    // Again: answered as it is, the first revocation stands.
    expect((await revoke(owner.token, theirs.token.id)).json().token.state).toBe('revoked');
  });
});

describe('access tokens: who may create, list and revoke', () => {
  const t = useTestApp();

  it('follows the study role matrix', async () => {
    const { send, studyId, tokens } = await studyRoleMatrix(t.app, 'invited');
    const expected = memberStatus(200);
    const ownerToken = await createToken(t.app, tokens.get('owner') as string, studyId);
    for (const role of STUDY_ROLES) {
      const created = await send(role, 'POST', `/api/studies/${studyId}/access-tokens`, {
        name: `as ${role}`,
        expiresInDays: 7,
      });
      expect(created.statusCode, `create as ${role}`).toBe(memberStatus(201)(role));
      const listed = await send(role, 'GET', `/api/studies/${studyId}/access-tokens`);
      expect(listed.statusCode, `list as ${role}`).toBe(expected(role));
      const revoked = await send(
        role,
        'DELETE',
        `/api/studies/${studyId}/access-tokens/${ownerToken.token.id}`,
      );
      // Only the owner may revoke the owner's token; a collaborator is told it does not exist.
      const revokeStatus = role === 'collaborator' ? 404 : role === 'owner' ? 200 : expected(role);
      expect(revoked.statusCode, `revoke as ${role}`).toBe(revokeStatus);
    }
  });
});

describe('access tokens: rate limit', () => {
  const t = useTestApp({ env: { ACCESS_TOKEN_RATE_LIMIT: '3' } });

  it('answers 429 once a token spent its budget for the minute, whatever the address', async () => {
    const { collaborator, study } = await studyWithFile(t.app);
    const { secret } = await createToken(t.app, collaborator.token, study.id);
    const call = () =>
      t.app.inject({
        url: `/api/studies/${study.id}/participants`,
        headers: bearer(secret),
        remoteAddress: someAddress(),
      });
    for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    // The member's session is not the token: it goes on.
    const session = await t.app.inject({
      url: `/api/studies/${study.id}/participants`,
      headers: bearer(collaborator.token),
    });
    expect(session.statusCode).toBe(200);
  });
});
