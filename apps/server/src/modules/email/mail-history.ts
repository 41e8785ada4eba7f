import {
  EMAIL_DETAILS_RECIPIENTS_MAX,
  type EmailDetails,
  type EmailRecord,
  STUDY_DETAIL_MESSAGES,
} from '@research/contracts';
import { notFound } from '../../errors.js';
import type { StudyAccess } from '../studies/index.js';
import * as repo from './email.repository.js';
import type { EmailDeps } from './mailing.js';

/** The mailing's delivery counts, kept on its row by database triggers (migration 0007). */
const deliveryStatusOf = (row: {
  queuedCount: number;
  sentCount: number;
  failedCount: number;
}) => ({
  queued: row.queuedCount,
  sent: row.sentCount,
  failed: row.failedCount,
});

/** The study's mail history: the list of mailings, and one mailing with its recipients. */
export function createMailHistory({ db }: Pick<EmailDeps, 'db'>) {
  return {
    async history(
      access: StudyAccess,
      page: { limit: number; offset: number },
    ): Promise<{ emails: EmailRecord[]; totalCount: number }> {
      const { rows, totalCount } = await repo.listMailings(db, access.study.id, page);
      return {
        totalCount,
        emails: rows.map((row) => ({
          id: row.id,
          kind: row.kind,
          emailSubject: row.subject,
          sentCount: row.recipientCount,
          sentAt: row.sentAt.toISOString(),
          deliveryStatus: deliveryStatusOf(row),
        })),
      };
    },

    /** One mailing with its body and its first recipients by address, each with its status. */
    async details(access: StudyAccess, emailId: string): Promise<EmailDetails> {
      const row = /^[0-9a-f-]{36}$/i.test(emailId)
        ? await repo.findMailing(db, access.study.id, emailId)
        : undefined;
      if (!row) throw notFound(STUDY_DETAIL_MESSAGES.emailNotFound, 'EMAIL_NOT_FOUND');
      const recipients = await repo.recipientsOf(db, [row.id], EMAIL_DETAILS_RECIPIENTS_MAX);
      return {
        id: row.id,
        kind: row.kind,
        emailSubject: row.subject,
        emailBody: row.body,
        sentCount: row.recipientCount,
        sentAt: row.sentAt.toISOString(),
        deliveryStatus: deliveryStatusOf(row),
        participants: recipients.get(row.id) ?? [],
      };
    },
  };
}
