import { randomUUID } from 'node:crypto';
import {
  APPLICATION_EMAILS,
  APPLICATION_SERVER_MESSAGES,
  AUTH_HARDENING_MESSAGES,
  DOCUMENT_UPLOAD_MESSAGES,
  type PreviousApplication,
  RESEARCHER_DOCUMENTS,
  type ResearcherApplicationInput,
  STUDY_DETAIL_MESSAGES,
} from '@research/contracts';
import type { AppConfig } from '../../config.js';
import type { Db, DbOrTx } from '../../db/client.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { checkFileType, safeFileName, type UploadedFile } from '../../http/multipart.js';
import { renderEmail } from '../../platform/mail-templates.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import type { UserRow } from '../auth/index.js';
import { isEmailVerified, type RequestContext } from '../auth/index.js';
import type { Messaging } from '../messaging/index.js';
import * as repo from './applications.repository.js';

/** Verification documents live in one private bucket, keyed by application. */
export const DOCUMENTS_BUCKET = 'researcher-documents';

const ALLOWED_DOCUMENT_TYPES = [
  { mime: 'application/pdf', extensions: ['pdf'] },
  { mime: 'image/png', extensions: ['png'] },
  { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'] },
];

/** An uploaded document that passed the checks, before it is stored. */
interface ApplicationDocument {
  id: string;
  fileName: string;
  contentType: string;
  data: Buffer;
}

export interface ApplicationsDeps {
  db: Db;
  config: AppConfig;
  messaging: Messaging;
  objectStore: ObjectStore;
}

export function createApplicationsService({
  db,
  config,
  messaging,
  objectStore,
}: ApplicationsDeps) {
  let bucketReady: Promise<void> | undefined;
  const ensureBucket = () => {
    bucketReady ??= objectStore.ensureBucket(DOCUMENTS_BUCKET).catch((error: unknown) => {
      bucketReady = undefined;
      throw error;
    });
    return bucketReady;
  };

  /** A mail to the applicant, addressed by first name, with a button to the platform. */
  async function notify(
    to: string,
    purpose: string,
    subject: string,
    firstName: string,
    paragraphs: readonly string[],
  ) {
    const mail = renderEmail({
      title: subject,
      paragraphs: [APPLICATION_EMAILS.dear(firstName), ...paragraphs],
      action: { label: APPLICATION_EMAILS.openPlatform, url: `${config.publicUrl}/dashboard` },
    });
    await messaging.queueEmail(purpose, { to, subject, ...mail });
  }

  /** Moves a pending application to its decision; 404 unknown, 409 already decided. */
  async function decide(
    id: string,
    status: 'approved' | 'rejected',
    reviewNotes: string | null,
    master: UserRow,
    ctx: RequestContext,
  ) {
    return db.transaction(async (tx) => {
      if (!(await repo.findApplication(tx, id)))
        throw notFound(APPLICATION_SERVER_MESSAGES.notFound);
      const updated = await repo.transition(tx, id, 'pending', {
        status,
        reviewedAt: new Date(),
        reviewedBy: master.id,
        reviewNotes,
      });
      if (!updated)
        throw conflict(APPLICATION_SERVER_MESSAGES.notPending, 'APPLICATION_NOT_PENDING');
      await recordAudit(tx, {
        actorId: master.id,
        action: `application.${status}`,
        targetType: 'researcher_application',
        targetId: id,
        ip: ctx.ip,
      });
      return updated;
    });
  }

  /** Who may apply: a researcher whose address is proven, applying for that very address. */
  function assertMayApply(user: UserRow, input: ResearcherApplicationInput) {
    if (user.role === 'master')
      throw conflict(APPLICATION_SERVER_MESSAGES.masterAccount, 'MASTER_ACCOUNT');
    // An application speaks for the address; whoever signed up must have proven it is theirs.
    if (!isEmailVerified(user))
      throw new AppError(403, 'EMAIL_NOT_CONFIRMED', AUTH_HARDENING_MESSAGES.confirmationRequired);
    if (input.email.trim().toLowerCase() !== user.email)
      throw badRequest(APPLICATION_SERVER_MESSAGES.emailMismatch, 'EMAIL_MISMATCH');
  }

  /** Every file is checked before anything is stored, so a bad one leaves nothing behind. */
  async function checkDocuments(files: UploadedFile[]): Promise<ApplicationDocument[]> {
    if (files.length > RESEARCHER_DOCUMENTS.maxFiles) {
      throw new AppError(413, 'TOO_MANY_FILES', DOCUMENT_UPLOAD_MESSAGES.tooManyFiles);
    }
    const documents: ApplicationDocument[] = [];
    for (const file of files) {
      const contentType = await checkFileType(file, ALLOWED_DOCUMENT_TYPES, 'PDF, PNG or JPEG');
      documents.push({
        id: randomUUID(),
        fileName: safeFileName(file.fileName),
        contentType,
        data: file.data,
      });
    }
    return documents;
  }

  /** The application row (replacing a rejected one), its files and documents, the audit. */
  async function recordApplication(
    tx: DbOrTx,
    user: UserRow,
    input: ResearcherApplicationInput,
    documents: ApplicationDocument[],
    ctx: RequestContext,
  ) {
    const current = await repo.findLiveApplicationOfUser(tx, user.id);
    if (current?.status === 'pending')
      throw conflict(APPLICATION_SERVER_MESSAGES.alreadyPending, 'APPLICATION_PENDING');
    if (current?.status === 'approved')
      throw conflict(APPLICATION_SERVER_MESSAGES.alreadyApproved, 'APPLICATION_APPROVED');
    // Applying again after a rejection replaces the rejected application.
    if (current) await repo.archiveApplication(tx, current.id);
    const row = await repo.insertApplication(tx, {
      userId: user.id,
      firstName: input.firstName,
      lastName: input.lastName,
      email: user.email,
      dateOfBirth: input.dateOfBirth,
      phoneNumber: input.phoneNumber,
      institution: input.institution,
      position: input.position,
      department: input.department || null,
      researchArea: input.researchArea || null,
      description: input.description || null,
    });
    for (const document of documents) {
      await objectStore.putObject(DOCUMENTS_BUCKET, `${row.id}/${document.id}`, document.data, {
        contentType: document.contentType,
      });
    }
    await repo.insertDocuments(
      tx,
      documents.map((d) => ({
        id: d.id,
        applicationId: row.id,
        fileName: d.fileName,
        contentType: d.contentType,
        sizeBytes: d.data.length,
        storageKey: `${row.id}/${d.id}`,
      })),
    );
    await recordAudit(tx, {
      actorId: user.id,
      action: current ? 'application.resubmitted' : 'application.submitted',
      targetType: 'researcher_application',
      targetId: row.id,
      details: { documents: documents.length },
      ip: ctx.ip,
    });
    return row;
  }

  return {
    /** The signed-in user's current application, or undefined when they have none. */
    liveApplicationOf: (userId: string) => repo.findLiveApplicationOfUser(db, userId),

    async statusOf(userId: string) {
      const row = await repo.findLiveApplicationOfUser(db, userId);
      if (!row) return null;
      const [view] = await repo.viewsOf(db, [row]);
      return view ?? null;
    },

    /** Every field of the user's latest rejected application, to start a new one from. */
    async previousOf(userId: string): Promise<PreviousApplication | null> {
      const row = await repo.findLatestRejectedApplicationOfUser(db, userId);
      if (!row) return null;
      return {
        firstName: row.firstName,
        lastName: row.lastName,
        dateOfBirth: row.dateOfBirth,
        phoneNumber: row.phoneNumber,
        institution: row.institution,
        position: row.position,
        department: row.department,
        researchArea: row.researchArea,
        description: row.description,
      };
    },

    async submit(
      user: UserRow,
      input: ResearcherApplicationInput,
      files: UploadedFile[],
      ctx: RequestContext,
    ) {
      assertMayApply(user, input);
      const documents = await checkDocuments(files);
      if (documents.length > 0) await ensureBucket();
      const application = await db.transaction((tx) =>
        recordApplication(tx, user, input, documents, ctx),
      );

      const { received } = APPLICATION_EMAILS;
      await notify(
        user.email,
        'application_received',
        received.subject,
        input.firstName,
        received.paragraphs,
      );
      return application.id;
    },

    async list(filter: {
      status?: repo.ApplicationRow['status'] | undefined;
      email?: string | undefined;
      limit: number;
      offset: number;
    }) {
      const { rows, totalCount } = await repo.listApplications(db, filter);
      return { applications: await repo.viewsOf(db, rows), totalCount };
    },

    async listResearchers(filter: { status: 'all' | 'approved'; limit: number; offset: number }) {
      const { rows, totalCount } = await repo.listResearchers(db, {
        approvedOnly: filter.status === 'approved',
        limit: filter.limit,
        offset: filter.offset,
      });
      return {
        totalCount,
        researchers: rows.map(({ application: a, lastLoginAt }) => ({
          id: a.userId,
          applicationId: a.id,
          firstName: a.firstName,
          lastName: a.lastName,
          email: a.email,
          institution: a.institution,
          department: a.department,
          position: a.position,
          researchArea: a.researchArea,
          status: a.status,
          approvedAt: a.status === 'approved' ? (a.reviewedAt?.toISOString() ?? null) : null,
          lastLoginAt: lastLoginAt?.toISOString() ?? null,
        })),
      };
    },

    async approve(
      id: string,
      reviewNotes: string | undefined,
      master: UserRow,
      ctx: RequestContext,
    ) {
      const row = await decide(id, 'approved', reviewNotes || null, master, ctx);
      const { approved } = APPLICATION_EMAILS;
      await notify(row.email, 'application_approved', approved.subject, row.firstName, [
        ...approved.paragraphs,
        ...(row.reviewNotes ? [approved.notes(row.reviewNotes)] : []),
      ]);
    },

    async reject(id: string, reason: string, master: UserRow, ctx: RequestContext) {
      const row = await decide(id, 'rejected', reason, master, ctx);
      const { rejected } = APPLICATION_EMAILS;
      await notify(row.email, 'application_rejected', rejected.subject, row.firstName, [
        ...rejected.paragraphs,
        rejected.reason(reason),
        rejected.closing,
      ]);
    },

    /** Archives a rejected application so its owner starts again with a fresh form. */
    async reset(id: string, master: UserRow, ctx: RequestContext) {
      const row = await db.transaction(async (tx) => {
        const current = await repo.findApplication(tx, id);
        if (!current) throw notFound(APPLICATION_SERVER_MESSAGES.notFound);
        if (current.status !== 'rejected')
          throw conflict(APPLICATION_SERVER_MESSAGES.notRejected, 'APPLICATION_NOT_REJECTED');
        await repo.archiveApplication(tx, id);
        await recordAudit(tx, {
          actorId: master.id,
          action: 'application.reset',
          targetType: 'researcher_application',
          targetId: id,
          ip: ctx.ip,
        });
        return current;
      });
      const { reset } = APPLICATION_EMAILS;
      await notify(row.email, 'application_reset', reset.subject, row.firstName, reset.paragraphs);
    },

    async openDocument(
      applicationId: string,
      documentId: string,
      master: UserRow,
      ctx: RequestContext,
    ) {
      const document = await repo.findDocument(db, applicationId, documentId);
      if (!document) throw notFound(STUDY_DETAIL_MESSAGES.documentNotFound);
      const object = await objectStore.getObject(DOCUMENTS_BUCKET, document.storageKey);
      await recordAudit(db, {
        actorId: master.id,
        action: 'application.document_downloaded',
        targetType: 'application_document',
        targetId: document.id,
        ip: ctx.ip,
      });
      return { document, body: object.body };
    },
  };
}

export type ApplicationsService = ReturnType<typeof createApplicationsService>;
