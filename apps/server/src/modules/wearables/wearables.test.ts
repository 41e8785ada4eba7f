import {
  GOOGLE_HEALTH_READ_SCOPES,
  PARTICIPANT_SESSION_HEADER,
  REAUTH_MAIL_TEXTS,
  WEARABLE_MESSAGES,
  WEARABLE_SERVER_MESSAGES,
} from '@research/contracts';
import type { Sandbox } from '@research/sandbox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  outboundMessages,
  participants,
  TOKEN_BINDING,
  wearableConnections,
  wearableOauthStates,
} from '../../db/schema/index.js';
import { PARTICIPANT_ADDRESS_PER_MINUTE } from '../../http/rate-limits.js';
import type { Cipher } from '../../platform/crypto.js';
import { createGoogleHealthClient } from '../../platform/google-health/index.js';
import { bearer, someAddress, uniqueEmail } from '../../test/auth-helpers.js';
import { addPending, codeFromInbox } from '../../test/enrolment-fixtures.js';
import { createTestApp, logCapture, type TestApp } from '../../test/test-app.js';
import {
  accountWith,
  browserVerifier,
  consentAt,
  participantSessionHeaders,
  studyWithParticipants,
} from '../../test/wearables-kit.js';
import { createWearablesService } from './wearables.service.js';

const SLEEP_SCOPE = GOOGLE_HEALTH_READ_SCOPES[2];

let testApp: TestApp;
let app: FastifyInstance;
let sandbox: Sandbox;
let world: Awaited<ReturnType<typeof studyWithParticipants>>;

/** Every log line of this file's app, for the last test: no token or address may be in one. */
const { lines: logLines, stream: logStream } = logCapture();

beforeAll(async () => {
  testApp = await createTestApp({ env: { LOG_LEVEL: 'debug' }, logStream });
  app = testApp.app;
  sandbox = testApp.sandbox as Sandbox;
  world = await studyWithParticipants(app);
}, 60_000);

afterAll(async () => {
  await testApp.close();
});

const call = (options: InjectOptions) => app.inject({ remoteAddress: someAddress(), ...options });

type Participant = { id: string; email: string };

/** The consent URL: 200 from /api/fitbit/auth-url with these headers and query. */
async function authUrlFor(headers: Record<string, string>, query: Record<string, string>) {
  const res = await call({ method: 'GET', url: '/api/fitbit/auth-url', headers, query });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { authUrl: string }).authUrl;
}

/** The consent URL through the participant's public path (reauthorization: e-mail, study code). */
const publicAuthUrl = (participant: Participant, extra: Record<string, string> = {}) =>
  authUrlFor(
    {},
    {
      participantId: participant.id,
      studyCode: world.study.studyCode,
      email: participant.email,
      ...extra,
    },
  );

/** The consent URL with the participant session the enrolment issues after verification. */
async function sessionAuthUrl(
  participant: Participant,
  extra: Record<string, string> = {},
  studyCode = world.study.studyCode,
) {
  return authUrlFor(await participantSessionHeaders(app, studyCode, participant), {
    participantId: participant.id,
    studyCode,
    ...extra,
  });
}

/**
 * Consents at `authUrl` as `account` and posts the code to the callback; `participantId` goes
 * with it when given (the direct path sends it, the enrolment's page does not).
 */
async function consentAndCallback(
  authUrl: string,
  account: string,
  options: { scopes?: readonly string[] | undefined; participantId?: string } = {},
) {
  const { scopes, participantId } = options;
  const consent = await consentAt(authUrl, { account, ...(scopes ? { scopes } : {}) });
  return call({
    method: 'POST',
    url: '/api/fitbit/callback',
    payload: {
      code: consent.code,
      state: consent.state,
      ...(participantId ? { participantId } : {}),
    },
  });
}

/** Connects a participant (first time, with the session) through the direct path. */
const connectDirect = async (
  participant: Participant,
  account: string,
  scopes?: readonly string[],
) =>
  consentAndCallback(await sessionAuthUrl(participant), account, {
    scopes,
    participantId: participant.id,
  });

/** Reconnects through the public path (the reauthorization e-mail's page) and the callback. */
const reconnectDirect = async (
  participant: Participant,
  account: string,
  scopes?: readonly string[],
) =>
  consentAndCallback(await publicAuthUrl(participant), account, {
    scopes,
    participantId: participant.id,
  });

/** A new participant of `target`'s study, connected with the session: the callback answers 200. */
async function connectedIn(
  target: Awaited<ReturnType<typeof studyWithParticipants>>,
  account: string,
) {
  const participant = await target.addParticipant();
  const authUrl = await sessionAuthUrl(participant, {}, target.study.studyCode);
  const res = await consentAndCallback(authUrl, account);
  expect(res.statusCode, res.body).toBe(200);
  return participant;
}

/** Posts the e-mail code the sandbox's inbox holds for `email` (no session header). */
const verifyEmailCode = async (participantId: string, email: string) =>
  call({
    method: 'POST',
    url: '/api/verification/verify-email-code',
    payload: {
      participantId,
      email,
      studyCode: world.study.studyCode,
      verificationCode: await codeFromInbox(testApp, email),
    },
  });

/** The owner asks for a token refresh of the participant's connection. */
const refreshAsOwner = (participantId: string) =>
  call({
    method: 'POST',
    url: '/api/fitbit/refresh-token',
    headers: bearer(world.owner.token),
    payload: { participantId },
  });

/** How many reauthorization mails were queued to this address. */
async function reauthMailsTo(email: string) {
  const queued = await app.platform.db
    .select()
    .from(outboundMessages)
    .where(eq(outboundMessages.purpose, 'wearable-reauthorization'));
  return queued.filter((m) => app.platform.cipher.decrypt(m.payloadEncrypted).includes(email))
    .length;
}

/** The app's service, whose calls to Google's token endpoint are counted. */
function countingService() {
  const tokenCalls: string[] = [];
  const client = createGoogleHealthClient(testApp.config.googleHealth, {
    fetch: (input, init) => {
      if (String(input) === testApp.config.googleHealth.tokenUrl) tokenCalls.push(String(input));
      return fetch(input, init);
    },
  });
  const service = createWearablesService({
    db: app.platform.db,
    databaseKind: app.platform.database.kind,
    config: testApp.config,
    cipher: app.platform.cipher,
    messaging: app.platform.messaging,
    client,
  });
  return { service, tokenCalls };
}

/** One run of the study purge, revoking grants through `client` (the app's own by default). */
async function purgeStudies(client?: ReturnType<typeof createGoogleHealthClient>) {
  const { purgeExpiredStudies } = await import('../studies/index.js');
  const { revokeStudyGrants } = await import('./wearables.service.js');
  return purgeExpiredStudies({
    db: app.platform.db,
    config: testApp.config,
    objectStore: app.platform.objectStore,
    revokeWearables: (studyId) =>
      revokeStudyGrants(
        { db: app.platform.db, cipher: app.platform.cipher, config: testApp.config },
        studyId,
        client,
      ),
  });
}

const connectionOf = async (participantId: string) => {
  const [row] = await app.platform.db
    .select()
    .from(wearableConnections)
    .where(eq(wearableConnections.participantId, participantId));
  return row;
};

describe('authorization URL', () => {
  it('is bound server-side: opaque single-use state, no verifier or ids in the URL, 10-minute expiry', async () => {
    const participant = await world.addParticipant();
    const authUrl = await sessionAuthUrl(participant);
    const url = new URL(authUrl);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    // No incremental authorization: a reconnect grants only what is ticked this time.
    expect(url.searchParams.has('include_granted_scopes')).toBe(false);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe('http://localhost:3000/fitbit/callback');
    expect(url.searchParams.get('scope')?.split(' ')).toEqual([...GOOGLE_HEALTH_READ_SCOPES]);
    const state = url.searchParams.get('state') ?? '';
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authUrl).not.toContain(participant.id);
    expect(authUrl).not.toContain(world.study.studyCode);
    const states = await app.platform.db
      .select()
      .from(wearableOauthStates)
      .where(eq(wearableOauthStates.participantId, participant.id));
    expect(states).toHaveLength(1);
    const [row] = states;
    expect(row?.stateHash).not.toBe(state);
    const ttl = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(ttl - 10 * 60 * 1000)).toBeLessThan(5_000);
  });

  it('looks the same from the public path whether or not there is a connection to renew, and stores nothing then', async () => {
    const participant = await world.addParticipant();
    const attempts = [
      // Enrolled, never connected: nothing to renew.
      { participantId: participant.id, studyCode: world.study.studyCode, email: participant.email },
      {
        participantId: participant.id,
        studyCode: world.study.studyCode,
        email: 'other@example.org',
      },
      { participantId: participant.id, studyCode: 'ZZZZ9999', email: participant.email },
      {
        participantId: 'P0000000000000000',
        studyCode: world.study.studyCode,
        email: participant.email,
      },
    ];
    for (const query of attempts) {
      const res = await call({ method: 'GET', url: '/api/fitbit/auth-url', query });
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['authUrl', 'expiresAt', 'success']);
      const url = new URL((res.json() as { authUrl: string }).authUrl);
      expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
      // Coming back from such a URL connects nothing: its state was never stored.
      const consent = await consentAt(url.toString(), { account: 'decoy.person@gmail.test' });
      const back = await call({
        method: 'POST',
        url: '/api/fitbit/callback',
        payload: { code: consent.code, state: consent.state },
      });
      // Told as another Google account would be: nothing says there was nothing to renew.
      expect(back.statusCode).toBe(409);
      expect(back.json()).toMatchObject({
        code: 'OTHER_GOOGLE_ACCOUNT',
        message: WEARABLE_SERVER_MESSAGES.otherGoogleAccount,
      });
    }
    const states = await app.platform.db
      .select()
      .from(wearableOauthStates)
      .where(eq(wearableOauthStates.participantId, participant.id));
    expect(states).toHaveLength(0);
    expect(await connectionOf(participant.id)).toBeUndefined();
    const anonymous = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query: { participantId: participant.id, studyCode: world.study.studyCode },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('who may connect a participant', () => {
  const SESSION = PARTICIPANT_SESSION_HEADER;

  it('an enrolled but unverified participant cannot be connected from the public path; the verified session can', async () => {
    // A default study (roster only, verification on): the roster address enrols directly.
    const email = uniqueEmail('takeover');
    await addPending(app, world.study.id, { email });
    const person = {
      email,
      firstName: 'Sam',
      lastName: 'Target',
      dateOfBirth: '1990-04-02',
      studyCode: world.study.studyCode,
    };
    const enrolled = await call({
      method: 'POST',
      url: '/api/participants/enroll-direct',
      payload: person,
    });
    expect(enrolled.statusCode, enrolled.body).toBe(200);
    expect(enrolled.json()).toMatchObject({ verificationRequired: true });
    const { participantId } = enrolled.json() as { participantId: string };

    // Id, e-mail and study code without the session: a URL that starts nothing.
    const publicPath = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query: { participantId, email, studyCode: world.study.studyCode },
    });
    expect(publicPath.statusCode, publicPath.body).toBe(200);
    const states = await app.platform.db
      .select()
      .from(wearableOauthStates)
      .where(eq(wearableOauthStates.participantId, participantId));
    expect(states).toHaveLength(0);
    // The same with a browser binding (the PKCE path).
    const pkce = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query: {
        participantId,
        email,
        studyCode: world.study.studyCode,
        clientBinding: browserVerifier().binding,
      },
    });
    expect(pkce.statusCode).toBe(200);
    expect(
      await app.platform.db
        .select()
        .from(wearableOauthStates)
        .where(eq(wearableOauthStates.participantId, participantId)),
    ).toHaveLength(0);

    // After the e-mail code, the session the enrolment issues connects.
    const verified = await verifyEmailCode(participantId, email);
    expect(verified.statusCode, verified.body).toBe(200);
    const sessionHeader = {
      [SESSION]: (verified.json() as { session: { sessionId: string } }).session.sessionId,
    };
    // Enrolled only now, with the session.
    const enrolledNow = await call({
      method: 'POST',
      url: '/api/participants/enroll-direct',
      payload: person,
      headers: sessionHeader,
    });
    expect(enrolledNow.json()).toMatchObject({ verificationRequired: false, participantId });
    const withSession = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      headers: sessionHeader,
      query: { participantId, studyCode: world.study.studyCode, mode: 'popup' },
    });
    expect(withSession.statusCode, withSession.body).toBe(200);
    const consent = await consentAt((withSession.json() as { authUrl: string }).authUrl, {
      account: 'takeover.target@gmail.test',
    });
    const callback = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
    });
    expect(callback.statusCode, callback.body).toBe(200);
    expect((await connectionOf(participantId))?.status).toBe('active');
  });

  it('reconnects from the public path with the Google account already connected', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'same.account@gmail.test')).statusCode).toBe(200);
    const before = await connectionOf(participant.id);
    sandbox.health.revoke('same.account@gmail.test');
    const res = await reconnectDirect(participant, 'same.account@gmail.test');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      participantId: participant.id,
      message: WEARABLE_SERVER_MESSAGES.connected,
    });
    const after = await connectionOf(participant.id);
    expect(after?.status).toBe('active');
    expect(after?.healthUserId).toBe(before?.healthUserId);
    expect(after?.refreshTokenEncrypted).not.toBe(before?.refreshTokenEncrypted);
  });

  it('refuses a reconnect with another Google account: clear message, no session, old connection untouched, new grant revoked', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'owner.account@gmail.test')).statusCode).toBe(200);
    const before = await connectionOf(participant.id);
    const audits = async () =>
      (
        await app.platform.db
          .select()
          .from(auditEvents)
          .where(eq(auditEvents.targetId, participant.id))
      ).map((a) => a.action);
    const connectedAudits = (await audits()).filter((a) => a === 'wearable.connected').length;

    // Direct path.
    const direct = await reconnectDirect(participant, 'stranger.account@gmail.test');
    expect(direct.statusCode, direct.body).toBe(409);
    expect(direct.json()).toMatchObject({
      code: 'OTHER_GOOGLE_ACCOUNT',
      message: WEARABLE_SERVER_MESSAGES.otherGoogleAccount,
    });
    expect(direct.json()).not.toHaveProperty('session');

    // PKCE path.
    const { verifier, binding } = browserVerifier();
    const authUrl = await publicAuthUrl(participant, { clientBinding: binding });
    const consent = await consentAt(authUrl, { account: 'stranger.account@gmail.test' });
    const pkce = await call({
      method: 'POST',
      url: '/api/data/exchange-fitbit-token',
      payload: {
        code: consent.code,
        state: consent.state,
        codeVerifier: verifier,
        redirectUri: 'http://localhost:3000/fitbit/callback',
        studyCode: world.study.studyCode,
      },
    });
    expect(pkce.statusCode, pkce.body).toBe(409);
    expect(pkce.json()).toMatchObject({ message: WEARABLE_SERVER_MESSAGES.otherGoogleAccount });
    expect(pkce.json()).not.toHaveProperty('session');

    // Nothing changed here; the stranger's new grants are revoked at Google, the owner's is not.
    expect(await connectionOf(participant.id)).toEqual(before);
    const strangerGrants = sandbox.health.connections('stranger.account@gmail.test');
    expect(strangerGrants).toHaveLength(2);
    for (const grant of strangerGrants) expect(grant.revokedAt).not.toBeNull();
    const [ownerGrant] = sandbox.health.connections('owner.account@gmail.test');
    expect(ownerGrant?.revokedAt ?? null).toBeNull();
    expect((await audits()).filter((a) => a === 'wearable.connected')).toHaveLength(
      connectedAudits,
    );
    // The owner's account still works through the same page.
    expect((await reconnectDirect(participant, 'owner.account@gmail.test')).statusCode).toBe(200);
  });

  it('the id enroll-direct answers, with the study code and e-mail, cannot revoke, refresh or read a connection', async () => {
    // The victim enrols and connects with their session, as the flow does.
    const email = uniqueEmail('victim');
    await addPending(app, world.study.id, { email });
    const person = {
      email,
      firstName: 'Vic',
      lastName: 'Tim',
      dateOfBirth: '1990-04-02',
      studyCode: world.study.studyCode,
    };
    const first = await call({
      method: 'POST',
      url: '/api/participants/enroll-direct',
      payload: person,
    });
    const { participantId } = first.json() as { participantId: string };
    const verified = await verifyEmailCode(participantId, email);
    const sessionId = (verified.json() as { session: { sessionId: string } }).session.sessionId;
    const enrolled = await call({
      method: 'POST',
      url: '/api/participants/enroll-direct',
      payload: person,
      headers: { [PARTICIPANT_SESSION_HEADER]: sessionId },
    });
    const consent = await consentAt((enrolled.json() as { fitbitAuthUrl: string }).fitbitAuthUrl, {
      account: 'victim.one@gmail.test',
    });
    const connected = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
    });
    expect(connected.statusCode, connected.body).toBe(200);

    // The attacker: study code and e-mail, and the id enroll-direct hands anyone who asks.
    const probe = await call({
      method: 'POST',
      url: '/api/participants/enroll-direct',
      payload: person,
    });
    expect((probe.json() as { participantId: string }).participantId).toBe(participantId);
    const named = { participantId, studyCode: world.study.studyCode, email };
    const calls = [
      { method: 'POST', url: '/api/fitbit/revoke-access', payload: named },
      { method: 'POST', url: '/api/fitbit/refresh-token', payload: named },
      {
        method: 'GET',
        url: `/api/fitbit/status/${participantId}`,
        query: { studyCode: world.study.studyCode, email },
      },
      {
        method: 'POST',
        url: '/api/data/store-tokens',
        payload: {
          participantId,
          participantCode: world.study.studyCode,
          participantInfo: { userId: 'x' },
        },
      },
    ] as const;
    for (const request of calls) {
      const res = await call(request);
      expect(res.statusCode, `${request.url}: ${res.body}`).toBe(401);
      expect(res.json()).toMatchObject({ code: 'PARTICIPANT_SESSION_REQUIRED' });
      expect(res.body).not.toContain('victim.one');
    }
    const verify = await call({
      method: 'POST',
      url: '/api/participants/verify',
      payload: { participantId, email },
    });
    expect((verify.json() as { data: Record<string, unknown> }).data).toEqual({
      participantId,
      participantEmail: email,
      studyCode: world.study.studyCode,
    });
    // Nothing changed: the grant is alive at Google and here.
    const row = await connectionOf(participantId);
    expect(row?.status).toBe('active');
    expect(row?.refreshTokenEncrypted).not.toBeNull();
    const [grant] = sandbox.health.connections('victim.one@gmail.test');
    expect(grant?.revokedAt ?? null).toBeNull();

    // The participant's own session can.
    const own = await call({
      method: 'GET',
      url: `/api/fitbit/status/${participantId}`,
      query: { studyCode: world.study.studyCode },
      headers: { [PARTICIPANT_SESSION_HEADER]: sessionId },
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('one Google account feeds one participant of a study; the second is refused and the first keeps its grant', async () => {
    const first = await world.addParticipant();
    const second = await world.addParticipant();
    expect((await connectDirect(first, 'shared.account@gmail.test')).statusCode).toBe(200);
    const refused = await connectDirect(second, 'shared.account@gmail.test');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'GOOGLE_ACCOUNT_IN_USE',
      message: WEARABLE_SERVER_MESSAGES.googleAccountInUse,
    });
    expect(await connectionOf(second.id)).toBeUndefined();
    expect((await connectionOf(first.id))?.status).toBe('active');
    expect(sandbox.health.connections('shared.account@gmail.test').every((g) => !g.revokedAt)).toBe(
      true,
    );
    // The same person in another study is normal.
    const other = await studyWithParticipants(app);
    const elsewhere = await other.addParticipant();
    const res = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      headers: await participantSessionHeaders(app, other.study.studyCode, elsewhere),
      query: { participantId: elsewhere.id, studyCode: other.study.studyCode },
    });
    const consent = await consentAt((res.json() as { authUrl: string }).authUrl, {
      account: 'shared.account@gmail.test',
    });
    const connected = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
    });
    expect(connected.statusCode, connected.body).toBe(200);
  });

  it('reconnecting with another Google account revokes the old grant at Google, unless it serves another study', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'old.account@gmail.test')).statusCode).toBe(200);
    expect((await connectDirect(participant, 'new.account@gmail.test')).statusCode).toBe(200);
    expect(sandbox.health.connections('old.account@gmail.test').every((g) => g.revokedAt)).toBe(
      true,
    );
    expect(sandbox.health.connections('new.account@gmail.test').some((g) => !g.revokedAt)).toBe(
      true,
    );
    const audit = await app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, participant.id));
    expect(audit.map((a) => a.action)).toContain('wearable.previous_grant_revoked');

    // An account that also serves the same person in another study stays granted.
    const other = await studyWithParticipants(app);
    const elsewhere = await other.addParticipant();
    const headers = await participantSessionHeaders(app, other.study.studyCode, elsewhere);
    const url = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      headers,
      query: { participantId: elsewhere.id, studyCode: other.study.studyCode },
    });
    const consent = await consentAt((url.json() as { authUrl: string }).authUrl, {
      account: 'kept.account@gmail.test',
    });
    await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
    });
    const here = await world.addParticipant();
    expect((await connectDirect(here, 'kept.account@gmail.test')).statusCode).toBe(200);
    expect((await connectDirect(here, 'another.account@gmail.test')).statusCode).toBe(200);
    expect(sandbox.health.connections('kept.account@gmail.test').some((g) => !g.revokedAt)).toBe(
      true,
    );
  });

  it('a reconnect that unticks sleep leaves sleep out (no scopes added back from the earlier grant)', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'untick.sleep@gmail.test')).statusCode).toBe(200);
    expect((await connectionOf(participant.id))?.grantedScopes).toContain(SLEEP_SCOPE);
    const fewer = GOOGLE_HEALTH_READ_SCOPES.filter((s) => s !== SLEEP_SCOPE);
    const res = await reconnectDirect(participant, 'untick.sleep@gmail.test', fewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.json().scope).split(' ').sort()).toEqual([...fewer].sort());
    expect([...((await connectionOf(participant.id))?.grantedScopes ?? [])].sort()).toEqual(
      [...fewer].sort(),
    );
  });
});

describe('direct path: POST /api/fitbit/callback', () => {
  it('connects, stores the tokens encrypted, and refuses the same state twice', async () => {
    const participant = await world.addParticipant();
    const authUrl = await sessionAuthUrl(participant);
    const consent = await consentAt(authUrl, { account: 'direct.one@gmail.test' });
    const payload = { code: consent.code, state: consent.state, participantId: participant.id };
    const res = await call({ method: 'POST', url: '/api/fitbit/callback', payload });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      participantId: participant.id,
      studyCode: world.study.studyCode,
      message: WEARABLE_SERVER_MESSAGES.connected,
    });
    const row = await connectionOf(participant.id);
    expect(row?.status).toBe('active');
    expect(row?.healthUserId).toBeTruthy();
    expect([...(row?.grantedScopes ?? [])].sort()).toEqual([...GOOGLE_HEALTH_READ_SCOPES].sort());
    // Ciphertexts of the platform cipher, not the provider's tokens.
    expect(row?.accessTokenEncrypted).toMatch(/^v1\./);
    expect(row?.refreshTokenEncrypted).toMatch(/^v1\./);
    expect(sandbox.health.connections('direct.one@gmail.test')).toHaveLength(1);

    const again = await call({ method: 'POST', url: '/api/fitbit/callback', payload });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ message: WEARABLE_MESSAGES.invalidState });
  });

  it("connects with a researcher's URL but hands whoever finishes it no participant session", async () => {
    const participant = await world.addParticipant();
    // The participant has verified before: a session could be made for them.
    await participantSessionHeaders(app, world.study.studyCode, participant);
    for (const [account, headers] of [
      ['by.owner@gmail.test', bearer(world.owner.token)],
      ['by.collaborator@gmail.test', bearer(world.collaborator.token)],
    ] as const) {
      const authUrl = await authUrlFor(headers, {
        participantId: participant.id,
        studyCode: world.study.studyCode,
      });
      const res = await consentAndCallback(authUrl, account, { participantId: participant.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ participantId: participant.id });
      expect(res.json()).not.toHaveProperty('session');
      expect(sandbox.health.connections(account)).toHaveLength(1);
    }
    // The participant's own attempt still hands their browser a session.
    const own = await connectDirect(participant, 'by.participant@gmail.test');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().session).toMatchObject({ participantId: participant.id, verified: true });
  });

  it('refuses an unknown state and a state issued for another participant', async () => {
    const participant = await world.addParticipant();
    const other = await world.addParticipant();
    const authUrl = await sessionAuthUrl(participant);
    const consent = await consentAt(authUrl, { account: 'direct.two@gmail.test' });
    for (const payload of [
      { code: consent.code, state: 'forged-state', participantId: participant.id },
      { code: consent.code, state: consent.state, participantId: other.id },
    ]) {
      const res = await call({ method: 'POST', url: '/api/fitbit/callback', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: WEARABLE_MESSAGES.invalidState });
    }
    expect(await connectionOf(other.id)).toBeUndefined();
  });

  it('says when the 10 minutes of an authorization have passed', async () => {
    const participant = await world.addParticipant();
    const authUrl = await sessionAuthUrl(participant);
    const consent = await consentAt(authUrl, { account: 'direct.late@gmail.test' });
    await app.platform.db
      .update(wearableOauthStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(wearableOauthStates.participantId, participant.id));
    const res = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: participant.id },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: WEARABLE_SERVER_MESSAGES.stateExpired });
    expect(await connectionOf(participant.id)).toBeUndefined();
  });

  it('tells the participant when the Google account has no health data', async () => {
    const participant = await world.addParticipant();
    const res = await connectDirect(participant, 'nohealth.person@gmail.test');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: WEARABLE_SERVER_MESSAGES.accountNotLinked });
    expect(await connectionOf(participant.id)).toBeUndefined();
  });
});

describe('PKCE path: exchange-fitbit-token then store-tokens', () => {
  it('exchanges on the server, answers user_id and the granted scope only, never a token', async () => {
    const participant = await world.addParticipant();
    const { verifier, binding } = browserVerifier();
    const authUrl = await sessionAuthUrl(participant, { clientBinding: binding });
    const granted = GOOGLE_HEALTH_READ_SCOPES.filter((s) => s !== SLEEP_SCOPE);
    const consent = await consentAt(authUrl, { account: 'pkce.one@gmail.test', scopes: granted });
    const exchange = (codeVerifier: string) =>
      call({
        method: 'POST',
        url: '/api/data/exchange-fitbit-token',
        payload: {
          code: consent.code,
          state: consent.state,
          codeVerifier,
          redirectUri: 'http://localhost:3000/fitbit/callback',
          studyCode: world.study.studyCode,
        },
      });
    const stranger = await exchange(browserVerifier().verifier);
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ message: WEARABLE_SERVER_MESSAGES.clientMismatch });

    // The browser binding cannot be skipped through the direct path.
    const bypass = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: participant.id },
    });
    expect(bypass.statusCode).toBe(400);
    expect(bypass.json()).toMatchObject({ message: WEARABLE_MESSAGES.invalidState });

    const res = await exchange(verifier);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as Record<string, unknown>;
    // The participant holds a verification record, so the answer also carries their session.
    expect(Object.keys(body).sort()).toEqual([
      'participantId',
      'scope',
      'session',
      'success',
      'user_id',
    ]);
    expect(body.session).toMatchObject({ participantId: participant.id, verified: true });
    expect(String(body.scope).split(' ').sort()).toEqual([...granted].sort());
    const row = await connectionOf(participant.id);
    expect(body.user_id).toBe(row?.healthUserId);
    expect(row?.grantedScopes).not.toContain(SLEEP_SCOPE);

    const session = (body.session as { sessionId: string }).sessionId;
    const store = (
      extra: Record<string, unknown> = {},
      headers = { [PARTICIPANT_SESSION_HEADER]: session },
    ) =>
      call({
        method: 'POST',
        url: '/api/data/store-tokens',
        headers,
        payload: {
          participantId: participant.id,
          participantCode: world.study.studyCode,
          participantInfo: { userId: body.user_id, fitbitUserId: body.user_id, scope: body.scope },
          ...extra,
        },
      });
    const withTokens = await store({ accessToken: 'ya29.from-the-browser' });
    expect(withTokens.statusCode).toBe(400);
    // Whether a connection exists is the participant's to know.
    expect((await store({}, { [PARTICIPANT_SESSION_HEADER]: '' })).statusCode).toBe(401);
    const stored = await store();
    expect(stored.statusCode, stored.body).toBe(200);
    expect(stored.json()).toEqual({ success: true, participantId: participant.id });
  });
});

describe('status, refresh and revoke', () => {
  it('reports non-secret facts only, to the participant and to members of the study', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'status.one@gmail.test')).statusCode).toBe(200);
    const asParticipant = await call({
      method: 'GET',
      url: `/api/fitbit/status/${participant.id}`,
      query: { studyCode: world.study.studyCode },
      headers: await participantSessionHeaders(app, world.study.studyCode, participant),
    });
    expect(asParticipant.statusCode).toBe(200);
    const data = (asParticipant.json() as { data: Record<string, unknown> }).data;
    expect(data).toMatchObject({ authorizationStatus: true, status: 'active', hasTokens: true });
    const [row] = await testApp.app.platform.db
      .select({ authorizedAt: participants.authorizedAt })
      .from(participants)
      .where(eq(participants.id, participant.id));
    expect(row?.authorizedAt).toBeInstanceOf(Date);
    expect(asParticipant.body).not.toMatch(/accessToken"\s*:\s*"|refresh_token|ya29/);
    const asCollaborator = await call({
      method: 'GET',
      url: `/api/fitbit/status/${participant.id}`,
      headers: bearer(world.collaborator.token),
    });
    expect(asCollaborator.statusCode).toBe(200);
  });

  it('refreshes single-flight: concurrent callers share one token grant', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'flight.one@gmail.test')).statusCode).toBe(200);
    const { service, tokenCalls } = countingService();
    // The stored access token has expired.
    await app.platform.db
      .update(wearableConnections)
      .set({ accessExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(wearableConnections.participantId, participant.id));
    const before = await connectionOf(participant.id);
    const tokens = await Promise.all(
      Array.from({ length: 5 }, () => service.accessToken(participant.id)),
    );
    expect(new Set(tokens).size).toBe(1);
    expect(tokenCalls).toHaveLength(1);
    const after = await connectionOf(participant.id);
    expect(after?.accessTokenEncrypted).not.toBe(before?.accessTokenEncrypted);
    expect(after?.refreshTokenEncrypted).toBe(before?.refreshTokenEncrypted);
  });

  it('after the grant is revoked at Google, a refresh marks the connection and mails the participant once a day', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'revoked.one@gmail.test')).statusCode).toBe(200);
    sandbox.health.revoke('revoked.one@gmail.test');
    const refresh = () => refreshAsOwner(participant.id);
    const res = await refresh();
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'NEEDS_REAUTHORIZATION' });
    const row = await connectionOf(participant.id);
    expect(row?.status).toBe('needs_reauthorization');
    expect(row?.accessTokenEncrypted).toBeNull();

    const mail = await sandbox.waitForMessage(
      { to: participant.email, subjectIncludes: REAUTH_MAIL_TEXTS.subject },
      15_000,
    );
    expect(mail.text).toContain(
      `http://localhost:3000/fitbit/reauthorize?participantId=${participant.id}`,
    );
    // The pages that ask for the ID get it from here; the link fills it in.
    expect(mail.text).toContain(
      `Your participant ID is ${participant.id}. The link fills it in for you.`,
    );
    // The same failure again the same day: no second mail.
    await app.platform.db
      .update(wearableConnections)
      .set({ status: 'active', refreshTokenEncrypted: row?.refreshTokenEncrypted ?? null })
      .where(eq(wearableConnections.participantId, participant.id));
    const before = await connectionOf(participant.id);
    expect(before?.lastReauthMailAt).not.toBeNull();
    expect((await refresh()).statusCode).toBe(409);
    expect(await reauthMailsTo(participant.email)).toBe(1);
  });

  it('fail, reconnect, fail again the same day: still one reauthorization mail', async () => {
    const participant = await world.addParticipant();
    const account = 'twice.failed@gmail.test';
    expect((await connectDirect(participant, account)).statusCode).toBe(200);
    const refresh = () => refreshAsOwner(participant.id);
    const mailsTo = () => reauthMailsTo(participant.email);
    sandbox.health.revoke(account);
    expect((await refresh()).statusCode).toBe(409);
    expect(await mailsTo()).toBe(1);

    expect((await reconnectDirect(participant, account)).statusCode).toBe(200);
    expect((await connectionOf(participant.id))?.status).toBe('active');
    sandbox.health.revoke(account);
    expect((await refresh()).statusCode).toBe(409);
    expect((await connectionOf(participant.id))?.status).toBe('needs_reauthorization');
    expect(await mailsTo()).toBe(1);
  });

  it('revoke-access revokes the grant at Google and forgets the tokens', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'withdraw.one@gmail.test')).statusCode).toBe(200);
    const res = await call({
      method: 'POST',
      url: '/api/fitbit/revoke-access',
      headers: await participantSessionHeaders(app, world.study.studyCode, participant),
      payload: { participantId: participant.id, studyCode: world.study.studyCode },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { status: 'revoked', hasTokens: false } });
    const [grant] = sandbox.health.connections('withdraw.one@gmail.test');
    expect(grant?.revokedAt).not.toBeNull();
    const row = await connectionOf(participant.id);
    expect(row?.refreshTokenEncrypted).toBeNull();
    const audit = await app.platform.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, participant.id));
    expect(audit.map((a) => a.action)).toContain('wearable.revoked');
  });
});

describe('POST /api/participants/verify', () => {
  it('returns the study code for a matching id and e-mail (trimmed, any case), one answer otherwise', async () => {
    const participant = await world.addParticipant();
    const ok = await call({
      method: 'POST',
      url: '/api/participants/verify',
      payload: { participantId: participant.id, email: `  ${participant.email.toUpperCase()} ` },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      success: true,
      data: { participantId: participant.id, studyCode: world.study.studyCode },
    });
    const wrongEmail = await call({
      method: 'POST',
      url: '/api/participants/verify',
      payload: { participantId: participant.id, email: 'someone@example.org' },
    });
    const unknown = await call({
      method: 'POST',
      url: '/api/participants/verify',
      payload: { participantId: 'P1234567890abcdef', email: participant.email },
    });
    expect(wrongEmail.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongEmail.body).toBe(unknown.body);
  });
});

describe('study listing GET /api/studies/:id/wearable-authorizations', () => {
  it('lists every participant with the connection facts, never a token', async () => {
    const participant = await world.addParticipant({ firstName: 'Listed', lastName: 'Person' });
    expect(
      (await connectDirect(participant, 'listed.one@gmail.test', [GOOGLE_HEALTH_READ_SCOPES[0]]))
        .statusCode,
    ).toBe(200);
    const res = await call({
      method: 'GET',
      url: `/api/studies/${world.study.id}/wearable-authorizations`,
      headers: bearer(world.owner.token),
      query: { limit: '200' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { authorizations: Record<string, unknown>[]; totalCount: number };
    const row = body.authorizations.find((a) => a.participantId === participant.id);
    expect(row).toMatchObject({
      name: 'Listed Person',
      email: participant.email,
      authorizationStatus: true,
      hasTokens: true,
      status: 'active',
      grantedScopes: [GOOGLE_HEALTH_READ_SCOPES[0]],
    });
    expect(body.totalCount).toBeGreaterThanOrEqual(body.authorizations.length);
    // No sandbox token (ya29.…, 1//0…) and no stored envelope ("v1.<key>.<iv>.<tag>.<data>"); an
    // e-mail address may well contain "v1." by chance, so only a whole envelope counts.
    expect(res.body).not.toMatch(/ya29\.|1\/\/0|"v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+"/);
  });

  it('role matrix: members only; refused calls say nothing about participants', async () => {
    const pending = await accountWith(app, 'pending');
    const outsider = await accountWith(app, 'approved');
    const plain = await accountWith(app, 'none');
    const url = `/api/studies/${world.study.id}/wearable-authorizations`;
    const cases: [string, Record<string, string>, number][] = [
      ['anonymous', {}, 401],
      ['no application', bearer(plain.token), 403],
      ['pending researcher', bearer(pending.token), 403],
      ['approved non-member', bearer(outsider.token), 403],
      ['master', bearer(world.master.token), 403],
      ['collaborator', bearer(world.collaborator.token), 200],
      ['owner', bearer(world.owner.token), 200],
    ];
    for (const [who, headers, status] of cases) {
      const res = await call({ method: 'GET', url, headers });
      expect(res.statusCode, who).toBe(status);
      if (status !== 200) expect(res.body, who).not.toContain('@');
    }
    // The per-participant researcher routes: a non-member gets the answer of an unknown id.
    const participant = await world.addParticipant();
    for (const [method, path, payload] of [
      ['POST', '/api/fitbit/refresh-token', { participantId: participant.id }],
      ['POST', '/api/fitbit/revoke-access', { participantId: participant.id }],
      ['GET', `/api/fitbit/status/${participant.id}`, undefined],
    ] as const) {
      const res = await call({
        method,
        url: path,
        headers: bearer(outsider.token),
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, path).toBe(404);
      const unknown = await call({
        method,
        url: path.replace(participant.id, 'P0000000000000000'),
        headers: bearer(outsider.token),
        ...(payload ? { payload: { participantId: 'P0000000000000000' } } : {}),
      });
      expect(res.body, path).toBe(unknown.body);
      const pendingRes = await call({
        method,
        url: path,
        headers: bearer(pending.token),
        ...(payload ? { payload } : {}),
      });
      expect(pendingRes.statusCode, path).toBe(403);
    }
  });
});

describe('role matrix over the per-participant wearable routes', () => {
  it('members of the study act; everyone else is refused without learning about the participant', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'matrix.one@gmail.test')).statusCode).toBe(200);
    const pending = await accountWith(app, 'pending');
    const outsider = await accountWith(app, 'approved');
    const plain = await accountWith(app, 'none');
    const routes = [
      {
        method: 'GET',
        url: '/api/fitbit/auth-url',
        query: { participantId: participant.id, studyCode: world.study.studyCode },
      },
      { method: 'GET', url: `/api/fitbit/status/${participant.id}` },
      {
        method: 'POST',
        url: '/api/fitbit/refresh-token',
        payload: { participantId: participant.id },
      },
      // Last: it ends the connection.
      {
        method: 'POST',
        url: '/api/fitbit/revoke-access',
        payload: { participantId: participant.id },
      },
    ] as const;
    const roles: [string, Record<string, string>, number][] = [
      // Without a bearer token the public path needs the participant's e-mail.
      ['anonymous', {}, 401],
      ['no application', bearer(plain.token), 403],
      ['pending researcher', bearer(pending.token), 403],
      ['master', bearer(world.master.token), 403],
      ['approved non-member', bearer(outsider.token), 404],
      ['collaborator', bearer(world.collaborator.token), 200],
      ['owner', bearer(world.owner.token), 200],
    ];
    for (const route of routes) {
      for (const [who, headers, status] of roles) {
        const res = await call({ ...route, headers });
        expect(res.statusCode, `${who} ${route.url}: ${res.body}`).toBe(status);
        if (status !== 200) expect(res.body, who).not.toContain(participant.email);
      }
    }
    const row = await connectionOf(participant.id);
    expect(row?.status).toBe('revoked');
    expect(row?.refreshTokenEncrypted).toBeNull();
  });
});

describe('admin CLI factory: add-participant', () => {
  it('adds a participant once per e-mail, and only for the holder of the admin key on loopback', async () => {
    const { readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const { addParticipant } = await import('../participant-access/index.js');
    const first = await addParticipant(app.platform.db, {
      studyCode: world.study.studyCode,
      email: 'factory.person@example.org',
    });
    expect(first.created).toBe(true);
    expect(first.participantId).toMatch(/^P[0-9a-f]{16}$/);
    const again = await addParticipant(app.platform.db, {
      studyCode: world.study.studyCode,
      email: 'factory.person@example.org',
    });
    expect(again).toMatchObject({ participantId: first.participantId, created: false });

    // Like an enrolled participant, they can prove their address (and so connect a wearable).
    const code = await call({
      method: 'POST',
      url: '/api/verification/send-email-code',
      payload: {
        participantId: first.participantId,
        email: 'factory.person@example.org',
        studyCode: world.study.studyCode,
      },
    });
    expect(code.statusCode, code.body).toBe(200);
    // A phone given on the command line is on record: the pre-approved flow finds them by it.
    const withPhone = await addParticipant(app.platform.db, {
      studyCode: world.study.studyCode,
      email: 'factory.phone@example.org',
      phoneNumber: '(617) - 5550 - 123',
    });
    const pending = await call({
      method: 'POST',
      url: '/api/participants/check-pending',
      payload: {
        studyCode: world.study.studyCode,
        email: 'factory.phone@example.org',
        phoneNumber: '6175550123',
      },
    });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.json().participant.participantId).toBe(withPhone.participantId);
    if (app.platform.database.kind !== 'pglite') return;
    const key = await readFile(path.join(testApp.config.dataDir, 'admin.key'), 'utf8');
    const payload = { studyCode: world.study.studyCode, email: 'route.person@example.org' };
    const refused = await app.inject({
      method: 'POST',
      url: '/api/local-admin/add-participant',
      payload,
      headers: { 'x-admin-key': 'wrong' },
      remoteAddress: '127.0.0.1',
    });
    expect(refused.statusCode).toBe(403);
    const res = await app.inject({
      method: 'POST',
      url: '/api/local-admin/add-participant',
      payload,
      headers: { 'x-admin-key': key.trim() },
      remoteAddress: '127.0.0.1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, created: true });
  });
});

describe('study purge', () => {
  it('revokes every grant of the study at Google before its rows go', async () => {
    const { studies } = await import('../../db/schema/index.js');
    const doomed = await studyWithParticipants(app);
    const participant = await connectedIn(doomed, 'purged.one@gmail.test');
    await app.platform.db
      .update(studies)
      .set({ deletedAt: new Date(Date.now() - 400 * 86_400_000) })
      .where(eq(studies.id, doomed.study.id));
    const purged = await purgeStudies();
    expect(purged).toBeGreaterThanOrEqual(1);
    const [grant] = sandbox.health.connections('purged.one@gmail.test');
    expect(grant?.revokedAt).not.toBeNull();
    expect(await connectionOf(participant.id)).toBeUndefined();
  });
});

describe('study purge when Google fails for one participant', () => {
  it('revokes every other grant, keeps the failing study for the next run and purges the others', async () => {
    const { studies } = await import('../../db/schema/index.js');
    const failing = await studyWithParticipants(app);
    const healthy = await studyWithParticipants(app);
    const stuck = await connectedIn(failing, 'purge.stuck@gmail.test');
    const sibling = await connectedIn(failing, 'purge.sibling@gmail.test');
    const other = await connectedIn(healthy, 'purge.other@gmail.test');
    const stuckToken = app.platform.cipher.decrypt(
      (await connectionOf(stuck.id))?.refreshTokenEncrypted ?? '',
      `wearable_connections.refresh_token:${stuck.id}`,
    );
    // Google answers 503 to the revocation of that one grant, every time.
    const client = createGoogleHealthClient(testApp.config.googleHealth, {
      retry: { maxAttempts: 1 },
      fetch: (input, init) =>
        String(input) === testApp.config.googleHealth.revokeUrl &&
        String(init?.body ?? '').includes(encodeURIComponent(stuckToken))
          ? Promise.resolve(new Response('<html>503</html>', { status: 503 }))
          : fetch(input, init),
    });
    const longAgo = new Date(Date.now() - 400 * 86_400_000);
    for (const target of [failing, healthy]) {
      await app.platform.db
        .update(studies)
        .set({ deletedAt: longAgo })
        .where(eq(studies.id, target.study.id));
    }
    const run = purgeStudies(client);
    await expect(run).rejects.toThrow(/1 of 2 wearable grants/);

    const liveStudies = await app.platform.db.select({ id: studies.id }).from(studies);
    const ids = liveStudies.map((r) => r.id);
    expect(ids).toContain(failing.study.id);
    expect(ids).not.toContain(healthy.study.id);
    const [otherGrant] = sandbox.health.connections('purge.other@gmail.test');
    expect(otherGrant?.revokedAt).not.toBeNull();
    expect(await connectionOf(other.id)).toBeUndefined();
    // Best effort inside the failing study: the sibling's grant is revoked, the stuck one kept.
    const [siblingGrant] = sandbox.health.connections('purge.sibling@gmail.test');
    expect(siblingGrant?.revokedAt).not.toBeNull();
    expect((await connectionOf(sibling.id))?.refreshTokenEncrypted).toBeNull();
    const [stuckGrant] = sandbox.health.connections('purge.stuck@gmail.test');
    expect(stuckGrant?.revokedAt ?? null).toBeNull();
    expect((await connectionOf(stuck.id))?.refreshTokenEncrypted).not.toBeNull();

    // The next run, with Google answering again, finishes the study.
    await purgeStudies();
    expect(sandbox.health.connections('purge.stuck@gmail.test')[0]?.revokedAt).not.toBeNull();
    expect(await connectionOf(stuck.id)).toBeUndefined();
  });
});

describe('the access token before use', () => {
  it('is refreshed when it expires within the next minute, used as is with minutes left', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'margin.one@gmail.test')).statusCode).toBe(200);
    const expiresIn = (ms: number) =>
      app.platform.db
        .update(wearableConnections)
        .set({ accessExpiresAt: new Date(Date.now() + ms) })
        .where(eq(wearableConnections.participantId, participant.id));
    // 30 s left: it could die mid-request, so it is refreshed first.
    await expiresIn(30_000);
    const before = await connectionOf(participant.id);
    const refreshed = await app.services.wearables.accessToken(participant.id);
    const after = await connectionOf(participant.id);
    expect(after?.accessTokenEncrypted).not.toBe(before?.accessTokenEncrypted);
    expect(after?.accessExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);
    // 5 minutes left: good for the next request, used as stored.
    await expiresIn(5 * 60_000);
    expect(await app.services.wearables.accessToken(participant.id)).toBe(refreshed);
    expect((await connectionOf(participant.id))?.accessTokenEncrypted).toBe(
      after?.accessTokenEncrypted,
    );
  });
});

describe('tokens encrypted at rest', () => {
  it('an access token written into the refresh token’s column is refused, never sent to Google as one', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'columns.one@gmail.test')).statusCode).toBe(200);
    const row = await connectionOf(participant.id);
    await app.platform.db
      .update(wearableConnections)
      .set({
        refreshTokenEncrypted: row?.accessTokenEncrypted ?? null,
        accessExpiresAt: new Date(Date.now() - 60_000),
      })
      .where(eq(wearableConnections.participantId, participant.id));
    const { service, tokenCalls } = countingService();
    await expect(service.accessToken(participant.id)).rejects.toThrow();
    expect(tokenCalls).toEqual([]);
  });

  it('another participant’s tokens copied onto a row are refused, not used', async () => {
    const owner = await world.addParticipant();
    const other = await world.addParticipant();
    expect((await connectDirect(owner, 'rows.owner@gmail.test')).statusCode).toBe(200);
    expect((await connectDirect(other, 'rows.other@gmail.test')).statusCode).toBe(200);
    const stolen = await connectionOf(owner.id);
    await app.platform.db
      .update(wearableConnections)
      .set({
        accessTokenEncrypted: stolen?.accessTokenEncrypted ?? null,
        accessExpiresAt: stolen?.accessExpiresAt ?? null,
        refreshTokenEncrypted: stolen?.refreshTokenEncrypted ?? null,
      })
      .where(eq(wearableConnections.participantId, other.id));
    const { service } = countingService();
    await expect(service.accessToken(other.id)).rejects.toThrow();
  });
});

/** The cipher, noting the associated data of every decryption (which tokens were read). */
function decryptCounting(cipher: Cipher) {
  const opened: string[] = [];
  return {
    opened,
    openedFor: (participantId: string) => opened.filter((ad) => ad.endsWith(participantId)).length,
    cipher: {
      encrypt: (plaintext: string, ad?: string) => cipher.encrypt(plaintext, ad),
      decrypt: (token: string, ad?: string) => {
        opened.push(ad ?? '');
        return cipher.decrypt(token, ad);
      },
    } satisfies Cipher,
  };
}

describe('tokens stored before they were bound to their participant', () => {
  it('are bound at start: used as before, and no longer open on another participant’s row', async () => {
    const { bindTokensToParticipants } = await import('./token-binding.js');
    const { COLUMN_ONLY_AD } = await import('./wearable-tokens.js');
    const participant = await world.addParticipant();
    const other = await world.addParticipant();
    expect((await connectDirect(participant, 'legacy.one@gmail.test')).statusCode).toBe(200);
    expect((await connectDirect(other, 'legacy.other@gmail.test')).statusCode).toBe(200);
    const { cipher, db } = app.platform;
    const bound = await connectionOf(participant.id);
    const accessToken = cipher.decrypt(
      bound?.accessTokenEncrypted ?? '',
      `wearable_connections.access_token:${participant.id}`,
    );
    const refreshToken = cipher.decrypt(
      bound?.refreshTokenEncrypted ?? '',
      `wearable_connections.refresh_token:${participant.id}`,
    );
    // As an older version stored them: bound to the column only (and unchecked, as the
    // migration that added the marker leaves every row).
    const legacy = {
      accessTokenEncrypted: cipher.encrypt(accessToken, COLUMN_ONLY_AD.access),
      refreshTokenEncrypted: cipher.encrypt(refreshToken, COLUMN_ONLY_AD.refresh),
      tokenBinding: TOKEN_BINDING.unchecked,
    };
    await db
      .update(wearableConnections)
      .set(legacy)
      .where(eq(wearableConnections.participantId, participant.id));

    const first = decryptCounting(cipher);
    expect(await bindTokensToParticipants(db, first.cipher)).toBe(1);
    // The freshly connected participant's tokens were stored bound: not even read.
    expect(first.openedFor(other.id)).toBe(0);
    const rebound = await connectionOf(participant.id);
    expect(
      cipher.decrypt(
        rebound?.refreshTokenEncrypted ?? '',
        `wearable_connections.refresh_token:${participant.id}`,
      ),
    ).toBe(refreshToken);
    expect(await app.services.wearables.accessToken(participant.id)).toBe(accessToken);
    // A second start finds nothing to do, and reads no token to find it out.
    const second = decryptCounting(cipher);
    expect(await bindTokensToParticipants(db, second.cipher)).toBe(0);
    expect(second.opened).toEqual([]);

    // The re-bound tokens copied onto another participant's row do not open there.
    await db
      .update(wearableConnections)
      .set({
        accessTokenEncrypted: rebound?.accessTokenEncrypted ?? null,
        refreshTokenEncrypted: rebound?.refreshTokenEncrypted ?? null,
      })
      .where(eq(wearableConnections.participantId, other.id));
    await expect(app.services.wearables.accessToken(other.id)).rejects.toThrow();
  });
});

describe('grant expiry', () => {
  it('shows the refresh token’s 7 days for a Testing client, and no expiry otherwise', async () => {
    const status = async (participant: { id: string }) =>
      (
        (
          await call({
            method: 'GET',
            url: `/api/fitbit/status/${participant.id}`,
            headers: bearer(world.owner.token),
          })
        ).json() as { data: { tokenExpiresAt: string | null } }
      ).data.tokenExpiresAt;
    const published = await world.addParticipant();
    expect((await connectDirect(published, 'published.one@gmail.test')).statusCode).toBe(200);
    expect(await status(published)).toBeNull();

    sandbox.health.setControls({ testingMode: true });
    try {
      const testing = await world.addParticipant();
      expect((await connectDirect(testing, 'testing.one@gmail.test')).statusCode).toBe(200);
      const expiry = new Date((await status(testing)) ?? 0).getTime();
      expect(Math.abs(expiry - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    } finally {
      sandbox.health.resetControls();
    }
  });
});

describe('who may ask for an authorization URL', () => {
  it('a member with a bearer token needs no e-mail; a non-member gets the unknown-participant answer', async () => {
    const participant = await world.addParticipant();
    const query = { participantId: participant.id, studyCode: world.study.studyCode };
    const member = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query,
      headers: bearer(world.collaborator.token),
    });
    expect(member.statusCode, member.body).toBe(200);
    const outsider = await accountWith(app, 'approved');
    const refused = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query,
      headers: bearer(outsider.token),
    });
    expect(refused.statusCode).toBe(404);
  });

  it('public calls are rate limited per address', async () => {
    const participant = await world.addParticipant();
    const remoteAddress = someAddress();
    const statuses: number[] = [];
    for (let i = 0; i < PARTICIPANT_ADDRESS_PER_MINUTE + 2; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/participants/verify',
        payload: { participantId: participant.id, email: 'guess@example.org' },
        remoteAddress,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, PARTICIPANT_ADDRESS_PER_MINUTE).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('participant deletion', () => {
  it('revokes the grant at Google when the owner deletes the participant', async () => {
    const participant = await world.addParticipant();
    expect((await connectDirect(participant, 'deleted.one@gmail.test')).statusCode).toBe(200);
    const res = await call({
      method: 'DELETE',
      url: `/api/participants/${participant.id}`,
      headers: bearer(world.owner.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const [grant] = sandbox.health.connections('deleted.one@gmail.test');
    expect(grant?.revokedAt).not.toBeNull();
    const row = await connectionOf(participant.id);
    expect(row?.status).toBe('revoked');
    expect(row?.refreshTokenEncrypted).toBeNull();
  });
});

// Runs last (tests run in file order): everything above connected, refreshed and revoked.
describe('logs', () => {
  it('never carry a Google token, an authorization code or verifier, or an e-mail address', async () => {
    const participant = await world.addParticipant();
    const authUrl = await sessionAuthUrl(participant);
    const consent = await consentAt(authUrl, { account: 'logs.one@gmail.test' });
    const res = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: participant.id },
    });
    expect(res.statusCode).toBe(200);
    const text = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(20);
    expect(text).toContain('/api/fitbit/callback');
    expect(text).not.toMatch(/ya29\.|1\/\/0|code_verifier|refresh_token|access_token/);
    expect(text).not.toContain(String(consent.code));
    expect(text).not.toContain(String(consent.state));
    expect(text).not.toContain(participant.email);
    expect(text).not.toContain(world.owner.email);
  });
});
