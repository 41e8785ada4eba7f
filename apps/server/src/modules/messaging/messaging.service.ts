import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { JobWithMetadata } from 'pg-boss';
import type { Db, DbOrTx } from '../../db/client.js';
import { outboundMessages } from '../../db/schema/index.js';
import { defineJob, type JobQueue, jobExecutorOn } from '../../platform/jobs.js';

/**
 * Mail and SMS always leave through the job queue: a relay that is down delays delivery but
 * loses nothing, and a request never waits on SMTP or Twilio.
 */
export type OutboundPayload =
  | { channel: 'email'; to: string; subject: string; html: string; text: string; replyTo?: string }
  | { channel: 'sms'; to: string; body: string };

export interface DeliveryError extends Error {
  transient: boolean;
}

export interface MessagingDeps {
  db: Db;
  jobs: () => JobQueue;
  cipher: { encrypt(plaintext: string): string; decrypt(token: string): string };
  sendEmail(message: {
    to: string;
    subject: string;
    html: string;
    text: string;
    replyTo?: string;
  }): Promise<{ messageId: string }>;
  sendSms(message: { to: string; body: string }): Promise<{ sid: string }>;
  retryLimit: number;
  retryDelaySeconds: number;
}

const isTransient = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'transient' in error &&
  (error as DeliveryError).transient === true;

/** A short, personal-data-free description of a failure for the status column. */
const describe = (error: unknown) =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);

/**
 * Mail a person is waiting for on screen (a code, a reset or confirmation link) leaves on a queue
 * of its own, with workers of its own: a mailing of hundreds of invitations queued just before
 * does not hold it up. The rest (invitations, notices) shares the other queue.
 */
export interface QueueOptions {
  awaited?: boolean;
}

const BULK_CONCURRENCY = 8;
const AWAITED_CONCURRENCY = 2;
/** Deliveries one process runs at once: the mailer keeps as many SMTP connections open. */
export const DELIVERY_CONCURRENCY = BULK_CONCURRENCY + AWAITED_CONCURRENCY;

export function createMessaging(deps: MessagingDeps) {
  const deliverJob = defineJob<{ messageId: string }>({
    name: 'deliver-message',
    retryLimit: deps.retryLimit,
    retryDelaySeconds: deps.retryDelaySeconds,
    concurrency: BULK_CONCURRENCY,
    handler: async (job) => deliver(job),
  });
  const deliverAwaitedJob = defineJob<{ messageId: string }>({
    name: 'deliver-awaited-message',
    retryLimit: deps.retryLimit,
    retryDelaySeconds: deps.retryDelaySeconds,
    concurrency: AWAITED_CONCURRENCY,
    handler: async (job) => deliver(job),
  });

  async function deliver(job: JobWithMetadata<{ messageId: string }>) {
    const [row] = await deps.db
      .update(outboundMessages)
      .set({ attempts: sql`${outboundMessages.attempts} + 1` })
      .where(eq(outboundMessages.id, job.data.messageId))
      .returning();
    if (row?.status !== 'queued') return;
    const payload = JSON.parse(deps.cipher.decrypt(row.payloadEncrypted)) as OutboundPayload;
    try {
      const providerId =
        payload.channel === 'email'
          ? (await deps.sendEmail(payload)).messageId
          : (await deps.sendSms(payload)).sid;
      await deps.db
        .update(outboundMessages)
        .set({ status: 'sent', sentAt: new Date(), providerId, lastError: null })
        .where(eq(outboundMessages.id, row.id));
    } catch (error) {
      const final = !isTransient(error) || deps.jobs().isFinalAttempt(job);
      await deps.db
        .update(outboundMessages)
        .set({ lastError: describe(error), ...(final ? { status: 'failed' as const } : {}) })
        .where(eq(outboundMessages.id, row.id));
      // Throwing hands the job back to pg-boss for a retry with back-off.
      if (!final) throw error;
    }
  }

  async function enqueue(
    purpose: string,
    payload: OutboundPayload,
    options: QueueOptions = {},
  ): Promise<string> {
    const [row] = await deps.db
      .insert(outboundMessages)
      .values({
        channel: payload.channel,
        purpose,
        payloadEncrypted: deps.cipher.encrypt(JSON.stringify(payload)),
      })
      .returning({ id: outboundMessages.id });
    if (!row) throw new Error('outbound message not stored');
    await deps.jobs().send(options.awaited ? deliverAwaitedJob : deliverJob, {
      messageId: row.id,
    });
    return row.id;
  }

  /**
   * Many messages in two statements (one insert, one job batch), so a mailing of 1,000 addresses
   * is answered at once. Returns the outbound ids in the order given. Given a transaction, both
   * statements are part of it: the messages go out only if the caller's work (e.g. the mailing's
   * history) commits with them.
   */
  async function enqueueMany(
    purpose: string,
    payloads: OutboundPayload[],
    tx?: DbOrTx,
  ): Promise<string[]> {
    if (payloads.length === 0) return [];
    // Ids made here, so each caller's address maps to its row without relying on RETURNING order.
    const rows = payloads.map((payload) => ({ id: randomUUID(), payload }));
    await (tx ?? deps.db).insert(outboundMessages).values(
      rows.map(({ id, payload }) => ({
        id,
        channel: payload.channel,
        purpose,
        payloadEncrypted: deps.cipher.encrypt(JSON.stringify(payload)),
      })),
    );
    const jobs = rows.map((row) => ({ data: { messageId: row.id } }));
    if (tx) {
      await deps.jobs().boss.insert(deliverJob.name, jobs, { db: jobExecutorOn(tx) });
    } else {
      await deps.jobs().boss.insert(deliverJob.name, jobs);
      deps.jobs().wake(deliverJob);
    }
    return rows.map((row) => row.id);
  }

  const enqueueEmails = (
    purpose: string,
    messages: Omit<Extract<OutboundPayload, { channel: 'email' }>, 'channel'>[],
    tx?: DbOrTx,
  ) =>
    enqueueMany(
      purpose,
      messages.map((message) => ({ channel: 'email' as const, ...message })),
      tx,
    );

  return {
    jobs: [deliverJob, deliverAwaitedJob],
    queueEmails: enqueueEmails,
    /** Mail and SMS alike, as queueEmails (a reminder run mixes both). */
    queueMessages: enqueueMany,
    /** Starts delivering mail queued by queueEmails in a transaction, once that has committed. */
    deliverQueued: () => deps.jobs().wake(deliverJob),
    queueEmail: (
      purpose: string,
      message: Omit<Extract<OutboundPayload, { channel: 'email' }>, 'channel'>,
      options?: QueueOptions,
    ) => enqueue(purpose, { channel: 'email', ...message }, options),
    queueSms: (
      purpose: string,
      message: Omit<Extract<OutboundPayload, { channel: 'sms' }>, 'channel'>,
      options?: QueueOptions,
    ) => enqueue(purpose, { channel: 'sms', ...message }, options),
  };
}

export type Messaging = ReturnType<typeof createMessaging>;
