import { createHash } from 'node:crypto';
import {
  CONSENT_RECORD_TEXTS,
  type ConsentOverview,
  type ConsentVersion,
  CONSENT_MESSAGES as M,
  type ParticipantConsent,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import { lockParticipantData } from '../../db/locks.js';
import { AppError, notFound } from '../../errors.js';
import { checkFileType, safeFileName, type UploadedFile } from '../../http/multipart.js';
import { hmacSign, hmacVerify } from '../../platform/crypto.js';
import { defineJob, type JobQueue, jobExecutorOn } from '../../platform/jobs.js';
import { renderEmail } from '../../platform/mail-templates.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import type { Messaging } from '../messaging/index.js';
import {
  findLiveParticipantInStudy,
  liveParticipantsOfStudy,
  markParticipantWithdrawn,
} from '../participants/index.js';
import { findLiveStudy, type StudyAccess, type StudyRow } from '../studies/index.js';
import * as repo from './consent.repository.js';
import { heldBackOfStudy } from './consent-gate.js';
import { consentRecordPdf } from './consent-record.js';

export interface ConsentDeps {
  db: Db;
  config: AppConfig;
  objectStore: ObjectStore;
  messaging: Messaging;
  bucketOf: (studyId: string) => string;
  /** Signs the e-mailed links to a signed record. */
  linkKey: Buffer;
  /** Revokes the participant's Google grant when there is one. */
  revokeWearable: (participantId: string, actorId: string | null) => Promise<void>;
  /** Deletes the participant's collected data (the dataset's partitions); answers how many. */
  removeCollectedData: (studyId: string, participantId: string) => Promise<number>;
  /** The job queue (started after the services): a withdrawal's follow-up is queued with it. */
  jobs: () => JobQueue;
  log?: { error: (details: object, message: string) => void };
  now?: () => Date;
}

/** Who a verified participant session speaks for. */
export interface ConsentHolder {
  participantId: string;
  studyId: string;
}

export interface Ctx {
  ip: string;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** The withdrawal's job waits this long: the request carries it out at once when it can. */
const FOLLOW_UP_DELAY_SECONDS = 60;
/** The e-mailed link to a signed record works this long. */
const COPY_LINK_SECONDS = 30 * 24 * 60 * 60;

const ownerOnly = () =>
  new AppError(403, 'OWNER_ONLY', 'Only the study owner can change the consent form.');

function versionView(row: repo.VersionRow, signatures = 0): ConsentVersion {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    markdown: row.markdown,
    pdfName: row.pdfName,
    statements: row.statements,
    sha256: row.sha256,
    reconsentRequired: row.reconsentRequired,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    signatureCount: signatures,
  };
}

const signatureView = (row: repo.SignatureRow) => ({
  id: row.id,
  versionNumber: row.versionNumber,
  signedAt: row.signedAt.toISOString(),
});

const sameStatements = (given: readonly string[], listed: readonly string[]) => {
  const a = given.map((s) => s.trim()).sort();
  const b = [...listed].sort();
  return a.length === b.length && a.every((s, i) => s === b[i]);
};

/**
 * Electronic consent: the owner's form in versions, the participant's signature with its
 * signed-record PDF in the study bucket (mailed as a link), and withdrawals. What may be fetched
 * is answered by consent-gate.ts, which the jobs ask.
 */
export function createConsentService(deps: ConsentDeps) {
  const { db, objectStore } = deps;
  const now = deps.now ?? (() => new Date());

  async function readObject(bucket: string, key: string): Promise<Buffer> {
    const { body } = await objectStore.getObject(bucket, key);
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer | string>)
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  async function liveStudyOf(studyId: string): Promise<StudyRow> {
    const study = await findLiveStudy(db, studyId);
    if (!study) throw notFound('Study not found', 'STUDY_NOT_FOUND');
    return study;
  }

  async function participantOf(studyId: string, participantId: string) {
    const participant = await findLiveParticipantInStudy(db, studyId, participantId);
    if (!participant) throw notFound(M.participantNotFound, 'PARTICIPANT_NOT_FOUND');
    return participant;
  }

  /** The study's one draft, written (or replaced) with its audit record. */
  async function storeDraft(
    access: StudyAccess,
    actorId: string,
    ctx: Ctx,
    values: Omit<Parameters<typeof repo.putDraft>[1], 'studyId' | 'createdBy'>,
  ) {
    const draft = await db.transaction(async (tx) => {
      // Two saves at once (two tabs) would both find no draft and both insert one.
      await repo.lockConsentForm(tx, access.study.id);
      const row = await repo.putDraft(tx, {
        ...values,
        studyId: access.study.id,
        createdBy: actorId,
      });
      await recordAudit(tx, {
        actorId,
        studyId: access.study.id,
        action: 'consent.draft_saved',
        targetType: 'consent_version',
        targetId: row.id,
        details: { kind: values.kind, sha256: row.sha256, statements: values.statements.length },
        ip: ctx.ip,
      });
      return row;
    });
    return versionView(draft);
  }

  function copyLink(signatureId: string): string {
    const expires = Math.floor(now().getTime() / 1000) + COPY_LINK_SECONDS;
    const token = hmacSign(deps.linkKey, `${signatureId}.${expires}`);
    const params = new URLSearchParams({ signature: signatureId, expires: String(expires), token });
    return `${deps.config.publicUrl}/api/consent/copy?${params}`;
  }

  /**
   * The withdrawal's own transaction: the record, the participant marked, the audit entry and a
   * follow-up job, together or not at all. It waits for dataset writes under way; after it, the
   * gate holds the participant back and no write lands. The grant and the data are dealt with
   * right after (carryOutWithdrawal); should that fail midway, the job finishes it.
   */
  async function withdraw(
    study: StudyRow,
    participantId: string,
    by: { kind: 'participant' | 'researcher'; actorId: string | null },
    ctx: Ctx,
  ) {
    const dataAction = study.settings.withdrawalData === 'delete' ? 'delete' : 'keep';
    const at = now();
    await db.transaction(async (tx) => {
      await lockParticipantData(tx, participantId, 'exclusive');
      const row = await repo.insertWithdrawal(tx, {
        participantId,
        studyId: study.id,
        withdrawnAt: at,
        recordedBy: by.kind,
        actorId: by.actorId,
        dataAction,
      });
      if (!row) throw new AppError(409, 'PARTICIPANT_WITHDRAWN', M.participantWithdrawn);
      await markParticipantWithdrawn(tx, participantId, at);
      await recordAudit(tx, {
        actorId: by.actorId,
        studyId: study.id,
        action: 'consent.withdrawn',
        targetType: 'participant',
        targetId: participantId,
        details: { recordedBy: by.kind, dataAction },
        ip: ctx.ip,
      });
      await deps
        .jobs()
        .boss.insert(
          withdrawalJob.name,
          [{ data: { participantId }, startAfter: FOLLOW_UP_DELAY_SECONDS }],
          { db: jobExecutorOn(tx) },
        );
    });
    try {
      await carryOutWithdrawal(participantId);
    } catch (error) {
      // Recorded and held back already; the queued job revokes and removes what is left.
      deps.log?.error({ err: error }, 'withdrawal follow-up failed; its job will finish it');
    }
  }

  /**
   * Revokes the grant and keeps or deletes the data as recorded, then marks the withdrawal
   * carried out with its audit entry, once. Each step may run again: a second run finds no grant
   * and no partitions left.
   */
  async function carryOutWithdrawal(participantId: string): Promise<void> {
    const withdrawal = await repo.findWithdrawal(db, participantId);
    if (!withdrawal || withdrawal.carriedOutAt) return;
    await deps.revokeWearable(participantId, withdrawal.actorId);
    const partitionsDeleted =
      withdrawal.dataAction === 'delete'
        ? await deps.removeCollectedData(withdrawal.studyId, participantId)
        : 0;
    await db.transaction(async (tx) => {
      if (!(await repo.markWithdrawalCarriedOut(tx, participantId, now()))) return;
      await recordAudit(tx, {
        actorId: withdrawal.actorId,
        studyId: withdrawal.studyId,
        action: 'consent.withdrawal_carried_out',
        targetType: 'participant',
        targetId: participantId,
        details: { dataAction: withdrawal.dataAction, partitionsDeleted },
      });
    });
  }

  const withdrawalJob = defineJob<{ participantId: string }>({
    name: 'consent-withdrawal-follow-up',
    retryLimit: 8,
    retryDelaySeconds: 30,
    handler: async (job) => carryOutWithdrawal(job.data.participantId),
  });

  return {
    jobs: [withdrawalJob],
    carryOutWithdrawal,

    // ---- Owner and members ----

    async overview(access: StudyAccess): Promise<Omit<ConsentOverview, 'success'>> {
      const studyId = access.study.id;
      const [draft, versions, counts, inForce] = await Promise.all([
        repo.findDraft(db, studyId),
        repo.publishedVersions(db, studyId),
        repo.signatureCounts(db, studyId),
        repo.versionInForce(db, studyId),
      ]);
      return {
        consentRequired: access.study.settings.consentRequired === true,
        withdrawalData: access.study.settings.withdrawalData === 'delete' ? 'delete' : 'keep',
        draft: draft ? versionView(draft) : null,
        versions: versions.map((v) => versionView(v, counts.get(v.id) ?? 0)),
        requiredNumber: inForce.requiredNumber,
      };
    },

    async saveDraft(
      access: StudyAccess,
      actorId: string,
      input: { markdown: string; statements: string[] },
      ctx: Ctx,
    ) {
      if (access.role !== 'main') throw ownerOnly();
      return storeDraft(access, actorId, ctx, {
        kind: 'markdown',
        markdown: input.markdown,
        pdfObjectKey: null,
        pdfName: null,
        statements: input.statements,
        sha256: sha256(Buffer.from(input.markdown, 'utf8')),
      });
    },

    async uploadPdf(
      access: StudyAccess,
      actorId: string,
      file: UploadedFile | undefined,
      statements: string[],
      ctx: Ctx,
    ) {
      if (access.role !== 'main') throw ownerOnly();
      if (!file) throw new AppError(400, 'BAD_MULTIPART', M.pdfRequired);
      const name = safeFileName(file.fileName);
      await checkFileType(file, [{ mime: 'application/pdf', extensions: ['pdf'] }], 'PDF').catch(
        () => {
          throw new AppError(415, 'UNSUPPORTED_FILE_TYPE', M.pdfRejected(name));
        },
      );
      const digest = sha256(file.data);
      const bucket = deps.bucketOf(access.study.id);
      const objectKey = `consent/forms/${digest}.pdf`;
      await objectStore.ensureBucket(bucket);
      await objectStore.putObject(bucket, objectKey, file.data, { contentType: 'application/pdf' });
      return storeDraft(access, actorId, ctx, {
        kind: 'pdf',
        markdown: null,
        pdfObjectKey: objectKey,
        pdfName: name,
        statements,
        sha256: digest,
      });
    },

    async publish(
      access: StudyAccess,
      actorId: string,
      input: { reconsentRequired: boolean },
      ctx: Ctx,
    ) {
      if (access.role !== 'main') throw ownerOnly();
      const version = await db.transaction(async (tx) => {
        await repo.lockConsentForm(tx, access.study.id);
        const row = await repo.publishDraft(tx, access.study.id, input.reconsentRequired);
        if (!row) throw new AppError(409, 'CONSENT_NO_DRAFT', M.noDraft);
        await recordAudit(tx, {
          actorId,
          studyId: access.study.id,
          action: 'consent.published',
          targetType: 'consent_version',
          targetId: row.id,
          details: {
            number: row.number,
            sha256: row.sha256,
            reconsentRequired: row.reconsentRequired,
          },
          ip: ctx.ip,
        });
        return row;
      });
      return versionView(version);
    },

    async versionPdf(access: StudyAccess, versionId: string) {
      const version = /^[0-9a-f-]{36}$/i.test(versionId)
        ? await repo.findVersion(db, access.study.id, versionId)
        : undefined;
      if (!version?.pdfObjectKey) throw notFound(M.versionNotFound, 'CONSENT_VERSION_NOT_FOUND');
      return {
        name: version.pdfName ?? 'consent.pdf',
        bytes: await readObject(deps.bucketOf(access.study.id), version.pdfObjectKey),
      };
    },

    async signatures(access: StudyAccess) {
      const studyId = access.study.id;
      const [rows, participants] = await Promise.all([
        repo.signaturesOfStudy(db, studyId),
        liveParticipantsOfStudy(db, studyId),
      ]);
      return {
        signatures: rows.map((s) => ({
          id: s.id,
          participantId: s.participantId,
          versionId: s.versionId,
          versionNumber: s.versionNumber,
          sha256: s.sha256,
          fullName: s.fullName,
          statements: s.statements,
          signedAt: s.signedAt.toISOString(),
          ip: s.ip,
        })),
        heldBack: await heldBackOfStudy(
          db,
          studyId,
          participants.map((p) => p.id),
          access.study.settings.consentRequired === true,
        ),
      };
    },

    async record(access: StudyAccess, signatureId: string) {
      const row = /^[0-9a-f-]{36}$/i.test(signatureId)
        ? await repo.findSignature(db, signatureId)
        : undefined;
      if (!row || row.studyId !== access.study.id)
        throw notFound(M.signatureNotFound, 'CONSENT_SIGNATURE_NOT_FOUND');
      return {
        name: `consent-${row.participantId}-v${row.versionNumber}.pdf`,
        bytes: await readObject(deps.bucketOf(row.studyId), row.recordObjectKey),
      };
    },

    async recordWithdrawal(access: StudyAccess, actorId: string, participantId: string, ctx: Ctx) {
      await participantOf(access.study.id, participantId);
      await withdraw(access.study, participantId, { kind: 'researcher', actorId }, ctx);
    },

    // ---- The participant ----

    async participantConsent(holder: ConsentHolder): Promise<Omit<ParticipantConsent, 'success'>> {
      const study = await liveStudyOf(holder.studyId);
      await participantOf(study.id, holder.participantId);
      const [withdrawal, inForce, latest] = await Promise.all([
        repo.findWithdrawal(db, holder.participantId),
        repo.versionInForce(db, study.id),
        repo.latestSignatureOf(db, study.id, holder.participantId),
      ]);
      const signature = latest
        ? {
            id: latest.id,
            versionNumber: latest.versionNumber,
            signedAt: latest.signedAt.toISOString(),
          }
        : null;
      const current = inForce.current;
      const version =
        current && current.number !== null
          ? {
              id: current.id,
              number: current.number,
              kind: current.kind,
              markdown: current.markdown,
              pdfName: current.pdfName,
              statements: current.statements,
              sha256: current.sha256,
            }
          : null;
      const base = { studyName: study.name, version, signature, reconsent: false };
      if (withdrawal) return { ...base, state: 'withdrawn' };
      if (study.settings.consentRequired !== true) return { ...base, state: 'not-required' };
      if (!version || inForce.requiredNumber === null) return { ...base, state: 'unavailable' };
      if (latest && latest.versionNumber >= inForce.requiredNumber)
        return { ...base, state: 'signed' };
      return { ...base, state: 'pending', reconsent: latest !== undefined };
    },

    async participantFormPdf(holder: ConsentHolder) {
      const { current } = await repo.versionInForce(db, holder.studyId);
      if (!current?.pdfObjectKey) throw notFound(M.versionNotFound, 'CONSENT_VERSION_NOT_FOUND');
      return {
        name: current.pdfName ?? 'consent.pdf',
        bytes: await readObject(deps.bucketOf(holder.studyId), current.pdfObjectKey),
      };
    },

    async sign(
      holder: ConsentHolder,
      input: { versionId: string; statements: string[]; fullName: string },
      ctx: Ctx,
    ) {
      const study = await liveStudyOf(holder.studyId);
      const participant = await participantOf(study.id, holder.participantId);
      if (await repo.findWithdrawal(db, participant.id))
        throw new AppError(409, 'PARTICIPANT_WITHDRAWN', M.alreadyWithdrawn);
      const { current } = await repo.versionInForce(db, study.id);
      if (!current || current.number === null) {
        throw study.settings.consentRequired === true
          ? notFound(M.noForm, 'CONSENT_VERSION_NOT_FOUND')
          : new AppError(409, 'CONSENT_NOT_REQUIRED', M.notRequired);
      }
      if (current.id !== input.versionId)
        throw new AppError(409, 'CONSENT_VERSION_CHANGED', M.versionChanged);
      if (!sameStatements(input.statements, current.statements))
        throw new AppError(400, 'CONSENT_STATEMENTS_INCOMPLETE', M.statementsIncomplete);
      // Signed already (a second tab, a button pressed twice, a replay): the same signature, and
      // no second record, file or e-mail.
      const latest = await repo.latestSignatureOf(db, study.id, participant.id);
      if (latest?.versionId === current.id) return signatureView(latest);

      const signedAt = now();
      const bucket = deps.bucketOf(study.id);
      const pdf = current.pdfObjectKey
        ? {
            name: current.pdfName ?? 'consent.pdf',
            bytes: await readObject(bucket, current.pdfObjectKey),
          }
        : null;
      const record = await consentRecordPdf({
        studyName: study.name,
        participantId: participant.id,
        versionNumber: current.number,
        versionSha256: current.sha256,
        fullName: input.fullName,
        signedAt,
        ip: ctx.ip,
        statements: current.statements,
        markdown: current.markdown,
        pdf,
      });
      const recordSha256 = sha256(record);
      const recordObjectKey = `consent/signatures/${participant.id}/v${current.number}-${signedAt.getTime()}.pdf`;
      await objectStore.ensureBucket(bucket);
      await objectStore.putObject(bucket, recordObjectKey, record, {
        contentType: 'application/pdf',
      });
      const signature = await db.transaction(async (tx) => {
        const row = await repo.insertSignature(tx, {
          studyId: study.id,
          participantId: participant.id,
          versionId: current.id,
          versionNumber: current.number as number,
          sha256: current.sha256,
          fullName: input.fullName,
          statements: current.statements,
          signedAt,
          ip: ctx.ip,
          recordObjectKey,
          recordSha256,
        });
        await recordAudit(tx, {
          actorId: null,
          studyId: study.id,
          action: 'consent.signed',
          targetType: 'participant',
          targetId: participant.id,
          details: {
            signatureId: row.id,
            versionNumber: row.versionNumber,
            sha256: row.sha256,
            recordSha256,
          },
          ip: ctx.ip,
        });
        return row;
      });
      const mail = renderEmail({
        title: CONSENT_RECORD_TEXTS.mailTitle,
        preheader: CONSENT_RECORD_TEXTS.mailTitle,
        paragraphs: [CONSENT_RECORD_TEXTS.mailBody(study.name, signature.versionNumber)],
        action: { label: CONSENT_RECORD_TEXTS.mailAction, url: copyLink(signature.id) },
      });
      await deps.messaging.queueEmail('consent-copy', {
        to: participant.email,
        subject: CONSENT_RECORD_TEXTS.mailSubject(study.name),
        html: mail.html,
        text: mail.text,
      });
      return signatureView(signature);
    },

    async ownCopy(holder: ConsentHolder) {
      const latest = await repo.latestSignatureOf(db, holder.studyId, holder.participantId);
      if (!latest) throw notFound(M.noSignature, 'CONSENT_SIGNATURE_NOT_FOUND');
      return {
        name: `consent-v${latest.versionNumber}.pdf`,
        bytes: await readObject(deps.bucketOf(latest.studyId), latest.recordObjectKey),
      };
    },

    async copyByLink(query: { signature: string; expires: number; token: string }) {
      const valid =
        query.expires * 1000 > now().getTime() &&
        hmacVerify(deps.linkKey, `${query.signature}.${query.expires}`, query.token);
      if (!valid) throw new AppError(410, 'CONSENT_LINK_INVALID', M.copyLinkInvalid);
      const row = /^[0-9a-f-]{36}$/i.test(query.signature)
        ? await repo.findSignature(db, query.signature)
        : undefined;
      if (!row) throw notFound(M.signatureNotFound, 'CONSENT_SIGNATURE_NOT_FOUND');
      return {
        name: `consent-v${row.versionNumber}.pdf`,
        bytes: await readObject(deps.bucketOf(row.studyId), row.recordObjectKey),
      };
    },

    async withdrawSelf(holder: ConsentHolder, ctx: Ctx) {
      const study = await liveStudyOf(holder.studyId);
      await participantOf(study.id, holder.participantId);
      await withdraw(study, holder.participantId, { kind: 'participant', actorId: null }, ctx);
    },
  };
}

export type ConsentService = ReturnType<typeof createConsentService>;
