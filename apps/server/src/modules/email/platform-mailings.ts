import type { EmailKind } from '@research/contracts';
import type { DbOrTx } from '../../db/client.js';
import * as repo from './email.repository.js';

/**
 * Mail the platform sends on its own (the adherence digest, participants' reminders) is listed in
 * the study's e-mail history like the researchers' mailings, without a sender. The caller queues
 * the messages in the same transaction, so no message leaves without its record.
 */
export async function recordPlatformMailing(
  tx: DbOrTx,
  mailing: {
    studyId: string;
    kind: Extract<EmailKind, 'adherence_digest' | 'sync_reminder' | 'reauthorization_reminder'>;
    subject: string;
    body: string;
    recipients: { address: string; outboundMessageId: string }[];
  },
): Promise<string> {
  return repo.insertMailing(tx, {
    ...mailing,
    recipientCount: mailing.recipients.length,
    sentBy: null,
  });
}
