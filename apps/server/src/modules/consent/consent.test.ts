import { createHash } from 'node:crypto';
import { CONSENT_HOLD_REASONS, CONSENT_MESSAGES } from '@research/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  auditEvents,
  consentSignatures,
  consentVersions,
  datasetPartitions,
  participants,
  wearableConnections,
} from '../../db/schema/index.js';
import { bearer, someAddress } from '../../test/auth-helpers.js';
import { useExtractionKit } from '../../test/extraction-kit.js';
import { injectMultipart, SAMPLE_FILES } from '../../test/multipart.js';
import { memberStatus, STUDY_ROLES, studyRoleMatrix } from '../../test/study-role-matrix.js';
import { consentAt, participantSessionHeaders } from '../../test/wearables-kit.js';
import { createConsentService } from './consent.service.js';

const kit = useExtractionKit();
const DAY_MS = 86_400_000;

const call = (options: InjectOptions) =>
  kit.app.inject({ remoteAddress: someAddress(), ...options });
const owner = () => bearer(kit.world.owner.token);
const studyUrl = (path: string) => `/api/studies/${kit.world.study.id}${path}`;

const FORM =
  '# Sleep and Steps\n\nWe collect your **heart rate** and steps for 4 weeks.\n\n- You may stop at any time.';
const STATEMENTS = [
  'I agree that my heart-rate data is collected',
  'I agree that my steps are collected',
];

async function setSettings(settings: Record<string, unknown>) {
  const res = await call({
    method: 'PUT',
    url: `/api/studies/${kit.world.study.id}`,
    headers: owner(),
    payload: { settings },
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function publish(markdown: string, reconsentRequired: boolean) {
  const saved = await call({
    method: 'PUT',
    url: studyUrl('/consent/draft'),
    headers: owner(),
    payload: { markdown, statements: STATEMENTS },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const published = await call({
    method: 'POST',
    url: studyUrl('/consent/publish'),
    headers: owner(),
    payload: { reconsentRequired },
  });
  expect(published.statusCode, published.body).toBe(201);
  return published.json().version as { id: string; number: number; sha256: string };
}

async function sessionOf(participant: { id: string; email: string }) {
  return participantSessionHeaders(kit.app, kit.world.study.studyCode, participant);
}

async function consentOf(headers: Record<string, string>) {
  const res = await call({ method: 'GET', url: '/api/participants/consent', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    state: string;
    reconsent: boolean;
    version: { id: string; number: number; statements: string[] } | null;
  };
}

async function sign(headers: Record<string, string>, payload: Record<string, unknown>) {
  return call({ method: 'POST', url: '/api/participants/consent/sign', headers, payload });
}

/** Signs the version in force with every statement ticked (201). */
async function signAll(headers: Record<string, string>, fullName = 'Sam Chen') {
  const { version } = await consentOf(headers);
  const res = await sign(headers, {
    versionId: version?.id,
    statements: version?.statements,
    fullName,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().signature as { id: string; versionNumber: number };
}

async function readBucket(key: string) {
  const { body } = await kit.app.platform.objectStore.getObject(kit.bucket(), key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const googleCalls = (account: string) => kit.sandbox.health.requests(account).length;

/**
 * A participant who signed the version in force and connected with `account`, enrolled a few
 * days ago (so a sweep has days).
 */
async function connectedParticipant(account: string) {
  const participant = await kit.connected(account, undefined, async (p) =>
    signAll(await sessionOf(p)),
  );
  await kit.app.platform.db
    .update(participants)
    .set({ enrolledAt: new Date(Date.now() - 3 * DAY_MS) })
    .where(eq(participants.id, participant.id));
  kit.sandbox.health.sync(account, Date.now());
  return participant;
}

describe('consent routes by role', () => {
  it('members read; only the owner writes the form; anyone signed out is refused', async () => {
    const { send, studyId } = await studyRoleMatrix(kit.app, 'invited');
    const cases: [string, 'GET' | 'PUT' | 'POST', string, Record<string, unknown>?, number?][] = [
      ['overview', 'GET', `/api/studies/${studyId}/consent`],
      ['signatures', 'GET', `/api/studies/${studyId}/consent/signatures`],
    ];
    for (const [, method, url] of cases) {
      for (const role of STUDY_ROLES) {
        const res = await send(role, method, url);
        expect(res.statusCode, `${role} ${url}`).toBe(memberStatus(200)(role));
      }
    }
    for (const role of STUDY_ROLES) {
      const res = await send(role, 'PUT', `/api/studies/${studyId}/consent/draft`, {
        markdown: `Form by ${role}`,
        statements: [],
      });
      expect(res.statusCode, role).toBe(memberStatus(200, true)(role));
    }
    for (const role of STUDY_ROLES) {
      const res = await send(role, 'POST', `/api/studies/${studyId}/consent/publish`, {
        reconsentRequired: false,
      });
      // The owner publishes the draft once; a second publish has no draft left.
      const expected = role === 'owner' ? 201 : memberStatus(409, true)(role);
      expect(res.statusCode, role).toBe(expected);
    }
    for (const role of STUDY_ROLES) {
      const res = await send(
        role,
        'POST',
        `/api/studies/${studyId}/participants/P0000000000000000/withdrawal`,
      );
      expect(res.statusCode, role).toBe(memberStatus(404)(role));
    }
    // The participant calls need a verified participant session.
    for (const url of ['/api/participants/consent', '/api/participants/consent/copy']) {
      expect((await call({ method: 'GET', url })).statusCode).toBe(401);
    }
    const unsigned = await call({
      method: 'POST',
      url: '/api/participants/consent/sign',
      payload: { versionId: 'x', statements: [], fullName: 'X' },
    });
    expect(unsigned.statusCode).toBe(401);
  });
});

describe('versions, signatures and re-consent', () => {
  it('new studies require consent; a participant signs the version in force; a new version asks again only when the owner says so', async () => {
    await setSettings({ consentRequired: true });
    const participant = await kit.world.addParticipant();
    const headers = await sessionOf(participant);
    expect((await consentOf(headers)).state).toBe('unavailable');

    const v1 = await publish(FORM, false);
    expect(v1.number).toBe(1);
    expect(v1.sha256).toBe(createHash('sha256').update(FORM, 'utf8').digest('hex'));
    const pending = await consentOf(headers);
    expect(pending).toMatchObject({ state: 'pending', reconsent: false });
    expect(pending.version?.statements).toEqual(STATEMENTS);

    // Every statement ticked and a name typed, or a clear 400.
    const missing = await sign(headers, {
      versionId: v1.id,
      statements: [STATEMENTS[0]],
      fullName: 'Sam Chen',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'CONSENT_STATEMENTS_INCOMPLETE',
      message: CONSENT_MESSAGES.statementsIncomplete,
    });
    const noName = await sign(headers, {
      versionId: v1.id,
      statements: STATEMENTS,
      fullName: '  ',
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain(CONSENT_MESSAGES.fullNameRequired);

    const signature = await signAll(headers, 'Sam Q. Chen');
    expect(signature.versionNumber).toBe(1);
    expect((await consentOf(headers)).state).toBe('signed');

    // The record: who, which version with its SHA-256, when, from which address; PDF in consent/.
    const [row] = await kit.app.platform.db
      .select()
      .from(consentSignatures)
      .where(eq(consentSignatures.id, signature.id));
    expect(row).toMatchObject({
      participantId: participant.id,
      versionId: v1.id,
      versionNumber: 1,
      sha256: v1.sha256,
      fullName: 'Sam Q. Chen',
      statements: STATEMENTS,
    });
    expect(row?.ip).toBeTruthy();
    expect(row?.recordObjectKey.startsWith(`consent/signatures/${participant.id}/`)).toBe(true);
    const pdf = await readBucket(row?.recordObjectKey ?? '');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(createHash('sha256').update(pdf).digest('hex')).toBe(row?.recordSha256);

    // The participant's own copy, and the copy mailed as a link.
    const copy = await call({ method: 'GET', url: '/api/participants/consent/copy', headers });
    expect(copy.statusCode).toBe(200);
    expect(copy.headers['content-type']).toBe('application/pdf');
    expect(copy.rawPayload.equals(pdf)).toBe(true);
    const mail = await kit.testApp.sandbox?.waitForMessage(
      { to: participant.email, channel: 'email' },
      20_000,
    );
    const link = /https?:\/\/\S+\/api\/consent\/copy\?[^\s)\]]+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBeTruthy();
    const byLink = await call({
      method: 'GET',
      url: new URL(link ?? '').pathname + new URL(link ?? '').search,
    });
    expect(byLink.statusCode).toBe(200);
    expect(byLink.rawPayload.equals(pdf)).toBe(true);
    const forged = await call({
      method: 'GET',
      url: `/api/consent/copy?signature=${signature.id}&expires=9999999999&token=forged`,
    });
    expect(forged.statusCode).toBe(410);

    // Signing the same version again answers the signature made: no second record, file or mail.
    const twice = await signAll(headers, 'Sam Q. Chen');
    expect(twice).toEqual(signature);
    const rows = await kit.app.platform.db
      .select()
      .from(consentSignatures)
      .where(eq(consentSignatures.participantId, participant.id));
    expect(rows).toHaveLength(1);
    const records = await kit.app.platform.objectStore.listObjects(kit.bucket(), {
      prefix: `consent/signatures/${participant.id}/`,
    });
    expect(records.objects).toHaveLength(1);
    expect(kit.testApp.sandbox?.messages({ to: participant.email })).toHaveLength(1);

    // Version 2 without re-consent: the signature of version 1 still counts.
    const v2 = await publish(`${FORM}\n\nA typo fixed.`, false);
    expect(v2.number).toBe(2);
    expect((await consentOf(headers)).state).toBe('signed');
    // Version 3 with re-consent: asked again, and held back until then.
    await publish(`${FORM}\n\nWe now also collect sleep.`, true);
    const again = await consentOf(headers);
    expect(again).toMatchObject({ state: 'pending', reconsent: true });
    expect(again.version?.number).toBe(3);
    const signatures = await call({
      method: 'GET',
      url: studyUrl('/consent/signatures'),
      headers: owner(),
    });
    expect(signatures.json().heldBack).toContainEqual({
      participantId: participant.id,
      state: 'pending',
    });

    // Old versions and their signatures stay readable.
    const overview = await call({ method: 'GET', url: studyUrl('/consent'), headers: owner() });
    const versions = overview.json().versions as { number: number; signatureCount: number }[];
    expect(versions.map((v) => [v.number, v.signatureCount])).toEqual([
      [3, 0],
      [2, 0],
      [1, 1],
    ]);
    expect(overview.json().requiredNumber).toBe(3);
    const record = await call({
      method: 'GET',
      url: studyUrl(`/consent/signatures/${signature.id}/pdf`),
      headers: owner(),
    });
    expect(record.statusCode).toBe(200);
    // Both reads name participants: the study's trail has them.
    const reads = await kit.app.platform.db
      .select({ action: auditEvents.action, targetId: auditEvents.targetId })
      .from(auditEvents)
      .where(eq(auditEvents.studyId, kit.world.study.id));
    expect(reads).toContainEqual({
      action: 'consent.signatures_listed',
      targetId: kit.world.study.id,
    });
    expect(reads).toContainEqual({ action: 'consent.record_downloaded', targetId: signature.id });

    await signAll(headers);
    expect((await consentOf(headers)).state).toBe('signed');
    // A version that is no longer in force cannot be signed.
    const stale = await sign(headers, { versionId: v1.id, statements: STATEMENTS, fullName: 'S' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('CONSENT_VERSION_CHANGED');
  }, 60_000);
});

describe('the gate, checked by the jobs', () => {
  it('Google is not asked for a grant before the participant signs', async () => {
    const someone = await kit.world.addParticipant({ firstName: 'Noor', lastName: 'Haddad' });
    const auth = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      headers: await sessionOf(someone),
      query: { participantId: someone.id, studyCode: kit.world.study.studyCode },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consent = await consentAt((auth.json() as { authUrl: string }).authUrl, {
      account: 'consent.unsigned@gmail.test',
    });
    const callback = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state, participantId: someone.id },
    });
    expect(callback.statusCode).toBe(403);
    expect(callback.json()).toMatchObject({
      code: 'CONSENT_REQUIRED',
      error: CONSENT_MESSAGES.signBeforeConnecting,
    });
    const stored = await kit.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, someone.id));
    expect(stored).toEqual([]);
  }, 60_000);

  it('a sweep, a collect and an extraction job make no Google call for a participant without consent', async () => {
    const account = 'consent.gate@gmail.test';
    const participant = await connectedParticipant(account);
    // A new version everyone must sign again: the participant, connected, is now held back.
    await publish(`${FORM}\n\nWe now also read your sleep.`, true);
    const before = googleCalls(account);

    const swept = await kit.app.collection.collectConnection(participant.id);
    expect(swept).toMatchObject({ written: 0, calls: 0, heldBack: 'consent_pending' });
    const days = await kit.app.collection.collectDays({
      participantId: participant.id,
      types: ['activity_steps_timeseries'],
      dates: [new Date().toISOString().slice(0, 10)],
      trigger: { kind: 'sweep' },
    });
    expect(days.heldBack).toBe('consent_pending');
    const notified = await kit.app.collection.collectNotified(participant.id);
    expect(notified?.heldBack).toBe('consent_pending');

    const runId = await kit.startRun(participant.id, 'Held back', ['activity_steps_timeseries']);
    await kit.finished(runId);
    const [job] = await kit.jobsOf(runId);
    expect(job).toMatchObject({ status: 'failed', error: CONSENT_HOLD_REASONS.consent_pending });
    expect(googleCalls(account)).toBe(before);

    // Once signed, the same sweep fetches.
    await signAll(await sessionOf(participant));
    const after = await kit.app.collection.collectConnection(participant.id);
    expect(after.heldBack).toBeUndefined();
    expect(after.calls).toBeGreaterThan(0);
    expect(googleCalls(account)).toBeGreaterThan(before);
  }, 90_000);
});

describe('withdrawal', () => {
  const partitionsOf = (participantId: string) =>
    kit.app.platform.db
      .select()
      .from(datasetPartitions)
      .where(
        and(
          eq(datasetPartitions.studyId, kit.world.study.id),
          eq(datasetPartitions.participantId, participantId),
        ),
      );
  const datasetObjects = async (participantId: string) => {
    const page = await kit.app.platform.objectStore.listObjects(kit.bucket(), {
      prefix: 'dataset/',
    });
    return page.objects.filter((o) => o.key.includes(`/participant=${participantId}/`));
  };
  const auditOf = (action: string, participantId: string) =>
    kit.app.platform.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, action), eq(auditEvents.targetId, participantId)));
  const withdrawalAudit = async (participantId: string) =>
    (await auditOf('consent.withdrawn', participantId))[0];
  const carriedOutAudit = async (participantId: string) =>
    auditOf('consent.withdrawal_carried_out', participantId);

  async function collectedParticipant(account: string) {
    const participant = await connectedParticipant(account);
    const headers = await sessionOf(participant);
    await signAll(headers);
    const collected = await kit.app.collection.collectConnection(participant.id);
    expect(collected.written).toBeGreaterThan(0);
    return { participant, headers };
  }

  it('from the link page, with the study keeping data: collection stops, the grant is revoked, the data stays', async () => {
    await setSettings({ withdrawalData: 'keep' });
    const account = 'consent.keep@gmail.test';
    const { participant, headers } = await collectedParticipant(account);
    const kept = (await partitionsOf(participant.id)).length;

    const res = await call({
      method: 'POST',
      url: '/api/participants/withdraw',
      headers,
      payload: { confirm: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(CONSENT_MESSAGES.withdrawn);
    expect((await consentOf(headers)).state).toBe('withdrawn');

    const [connection] = await kit.app.platform.db
      .select()
      .from(wearableConnections)
      .where(eq(wearableConnections.participantId, participant.id));
    expect(connection?.accessTokenEncrypted ?? null).toBeNull();
    const [row] = await kit.app.platform.db
      .select({ status: participants.status })
      .from(participants)
      .where(eq(participants.id, participant.id));
    expect(row?.status).toBe('withdrawn');
    expect((await partitionsOf(participant.id)).length).toBe(kept);
    expect(await withdrawalAudit(participant.id)).toMatchObject({
      studyId: kit.world.study.id,
      actorId: null,
      details: { recordedBy: 'participant', dataAction: 'keep' },
    });
    expect(await carriedOutAudit(participant.id)).toMatchObject([
      { studyId: kit.world.study.id, details: { dataAction: 'keep', partitionsDeleted: 0 } },
    ]);

    const before = googleCalls(account);
    const after = await kit.app.collection.collectConnection(participant.id);
    expect(after.calls).toBe(0);
    expect(googleCalls(account)).toBe(before);
    const twice = await call({
      method: 'POST',
      url: '/api/participants/withdraw',
      headers,
      payload: { confirm: true },
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('PARTICIPANT_WITHDRAWN');
  }, 90_000);

  it('recorded by a researcher, with the study deleting data: the collected partitions and files go', async () => {
    await setSettings({ withdrawalData: 'delete' });
    const { participant } = await collectedParticipant('consent.delete@gmail.test');
    expect((await partitionsOf(participant.id)).length).toBeGreaterThan(0);
    expect((await datasetObjects(participant.id)).length).toBeGreaterThan(0);

    // A collection under way when the withdrawal comes in: whichever way they interleave, nothing
    // it fetched stays (the withdrawal waits for its writes; later writes see the withdrawal).
    const collecting = kit.app.collection.collectConnection(participant.id);
    const res = await call({
      method: 'POST',
      url: studyUrl(`/participants/${participant.id}/withdrawal`),
      headers: bearer(kit.world.collaborator.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    await collecting;
    expect(await partitionsOf(participant.id)).toEqual([]);
    expect(await datasetObjects(participant.id)).toEqual([]);
    expect(await withdrawalAudit(participant.id)).toMatchObject({
      actorId: kit.world.collaborator.user.id,
      details: { recordedBy: 'researcher', dataAction: 'delete' },
    });
    const [carried] = await carriedOutAudit(participant.id);
    expect(carried?.actorId).toBe(kit.world.collaborator.user.id);
    expect((carried?.details as { partitionsDeleted?: number })?.partitionsDeleted).toBeGreaterThan(
      0,
    );
    const signatures = await call({
      method: 'GET',
      url: studyUrl('/consent/signatures'),
      headers: owner(),
    });
    expect(signatures.json().heldBack).toContainEqual({
      participantId: participant.id,
      state: 'withdrawn',
    });
  }, 90_000);
  it('tells a stranger on the public reconnect path nothing of the withdrawal', async () => {
    await setSettings({ withdrawalData: 'keep' });
    const { participant } = await collectedParticipant('consent.stranger@gmail.test');
    const recorded = await call({
      method: 'POST',
      url: studyUrl(`/participants/${participant.id}/withdrawal`),
      headers: owner(),
    });
    expect(recorded.statusCode, recorded.body).toBe(200);
    // Id, e-mail and study code are all the public path asks; then the stranger's own Google.
    const auth = await call({
      method: 'GET',
      url: '/api/fitbit/auth-url',
      query: {
        participantId: participant.id,
        studyCode: kit.world.study.studyCode,
        email: participant.email,
      },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    const consent = await consentAt((auth.json() as { authUrl: string }).authUrl, {
      account: 'someone.else@gmail.test',
    });
    const callback = await call({
      method: 'POST',
      url: '/api/fitbit/callback',
      payload: { code: consent.code, state: consent.state },
    });
    expect(callback.json().code).toBe('OTHER_GOOGLE_ACCOUNT');
    expect(callback.body).not.toContain(CONSENT_MESSAGES.alreadyWithdrawn);
  }, 90_000);

  it('a follow-up that fails midway leaves the withdrawal recorded; its job finishes it once', async () => {
    await setSettings({ withdrawalData: 'delete' });
    const { participant } = await collectedParticipant('consent.midway@gmail.test');
    const { platform, services } = kit.app;
    // The same service, with the object store failing at the deletion.
    const failing = createConsentService({
      db: platform.db,
      config: platform.config,
      objectStore: platform.objectStore,
      messaging: platform.messaging,
      bucketOf: services.studies.bucketOf,
      linkKey: Buffer.alloc(32, 1),
      revokeWearable: (id, actorId) => services.wearables.revokeIfConnected(id, actorId),
      removeCollectedData: () => Promise.reject(new Error('object store unreachable')),
      jobs: () => platform.jobs,
    });
    await failing.withdrawSelf(
      { participantId: participant.id, studyId: kit.world.study.id },
      { ip: '203.0.113.9' },
    );
    // The withdrawal stands (recorded, audited, held back); the data is still there.
    expect(await withdrawalAudit(participant.id)).toBeDefined();
    expect(await carriedOutAudit(participant.id)).toEqual([]);
    expect((await partitionsOf(participant.id)).length).toBeGreaterThan(0);
    const queued = await platform.db.execute(
      sql`select data, start_after > now() as later from pgboss.job
          where name = 'consent-withdrawal-follow-up' and data->>'participantId' = ${participant.id}`,
    );
    expect(Array.isArray(queued) ? queued : (queued as { rows: unknown[] }).rows).toMatchObject([
      { data: { participantId: participant.id }, later: true },
    ]);

    // What the queued job runs, twice: the data goes, the audit entry is written once.
    await services.consent.carryOutWithdrawal(participant.id);
    await services.consent.carryOutWithdrawal(participant.id);
    expect(await partitionsOf(participant.id)).toEqual([]);
    expect(await datasetObjects(participant.id)).toEqual([]);
    const carried = await carriedOutAudit(participant.id);
    expect(carried).toHaveLength(1);
    expect(carried[0]?.details).toMatchObject({ dataAction: 'delete' });
  }, 90_000);
});

describe('a PDF form', () => {
  it('is checked by content, published as a version and read back byte for byte by members', async () => {
    const upload = (data: Buffer, name: string) =>
      injectMultipart(kit.app, {
        url: studyUrl('/consent/draft/pdf'),
        headers: owner(),
        fields: { statements: JSON.stringify(STATEMENTS) },
        files: [{ field: 'pdf', name, data, type: 'application/pdf' }],
      });
    const renamed = await upload(SAMPLE_FILES.exe, 'form.pdf');
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json().error).toBe(CONSENT_MESSAGES.pdfRejected('form.pdf'));

    const saved = await upload(SAMPLE_FILES.pdf, 'Consent form v3.pdf');
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft).toMatchObject({
      kind: 'pdf',
      markdown: null,
      pdfName: 'Consent form v3.pdf',
      statements: STATEMENTS,
      sha256: createHash('sha256').update(SAMPLE_FILES.pdf).digest('hex'),
    });
    const published = await call({
      method: 'POST',
      url: studyUrl('/consent/publish'),
      headers: owner(),
      payload: { reconsentRequired: false },
    });
    expect(published.statusCode, published.body).toBe(201);
    const version = published.json().version as { id: string; kind: string };
    expect(version.kind).toBe('pdf');

    const read = await call({
      method: 'GET',
      url: studyUrl(`/consent/versions/${version.id}/pdf`),
      headers: bearer(kit.world.collaborator.token),
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toContain('application/pdf');
    expect(read.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    const stranger = await call({
      method: 'GET',
      url: studyUrl(`/consent/versions/${version.id}/pdf`),
    });
    expect(stranger.statusCode).toBe(401);
  });

  it('takes saves made at the same moment (two tabs) one after the other: one draft, no error', async () => {
    const saves = await Promise.all(
      Array.from({ length: 8 }, (_, i) => `tab ${i + 1}`).map((word) =>
        call({
          method: 'PUT',
          url: studyUrl('/consent/draft'),
          headers: owner(),
          payload: { markdown: `${FORM}\n\nThe ${word} tab.`, statements: STATEMENTS },
        }),
      ),
    );
    expect(saves.map((res) => res.statusCode)).toEqual(Array(8).fill(200));
    const drafts = await kit.app.platform.db
      .select()
      .from(consentVersions)
      .where(and(eq(consentVersions.studyId, kit.world.study.id), isNull(consentVersions.number)));
    expect(drafts).toHaveLength(1);
  });
});
