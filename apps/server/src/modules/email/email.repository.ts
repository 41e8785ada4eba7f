import type { DeliveryStatus, EmailKind } from '@research/contracts';
import { and, count, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { pageWithTotal, totalOf } from '../../db/paging.js';
import { emailMessages, emailRecipients, outboundMessages } from '../../db/schema/index.js';

export async function insertMailing(
  db: DbOrTx,
  mailing: {
    studyId: string;
    kind: EmailKind;
    subject: string;
    body: string;
    recipientCount: number;
    /** Null for mail the platform sends itself (digests, reminders). */
    sentBy: string | null;
    recipients: { address: string; outboundMessageId: string | null }[];
  },
): Promise<string> {
  const { recipients, ...values } = mailing;
  const [row] = await db.insert(emailMessages).values(values).returning({ id: emailMessages.id });
  if (!row) throw new Error('mailing not stored');
  for (let i = 0; i < recipients.length; i += 1000) {
    await db
      .insert(emailRecipients)
      .values(recipients.slice(i, i + 1000).map((r) => ({ messageId: row.id, ...r })))
      .onConflictDoNothing();
  }
  return row.id;
}

export async function listMailings(
  db: DbOrTx,
  studyId: string,
  page: { limit: number; offset: number },
) {
  const where = eq(emailMessages.studyId, studyId);
  const rows = await db
    .select({ ...getTableColumns(emailMessages), totalCount: totalOf(emailMessages, where) })
    .from(emailMessages)
    .where(where)
    .orderBy(desc(emailMessages.sentAt), desc(emailMessages.id))
    .limit(page.limit)
    .offset(page.offset);
  return pageWithTotal(rows, page.offset, async () => {
    const [total] = await db.select({ value: count() }).from(emailMessages).where(where);
    return total?.value ?? 0;
  });
}

/** One mailing of a study, or undefined (another study's mailing is not found either). */
export async function findMailing(db: DbOrTx, studyId: string, emailId: string) {
  const [row] = await db
    .select()
    .from(emailMessages)
    .where(and(eq(emailMessages.studyId, studyId), eq(emailMessages.id, emailId)))
    .limit(1);
  return row;
}

/**
 * The first `perMessage` recipients of each mailing (by address) with their delivery status.
 * A lateral join reads each mailing's first rows straight off the (message_id, address) key and
 * stops there, instead of ranking every recipient of the page's mailings (a 1,000-address
 * mailing costs 200 index entries, not a sort of 1,000 rows).
 */
export async function recipientsOf(db: DbOrTx, messageIds: string[], perMessage: number) {
  const result = new Map<string, { participantEmail: string; status: DeliveryStatus }[]>();
  if (messageIds.length === 0) return result;
  const ids = sql.join(
    messageIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const found = await db.execute<{ message_id: string; address: string; status: DeliveryStatus }>(
    sql`select m.id as message_id, r.address, coalesce(o.status, 'sent') as status
          from unnest(array[${ids}]) as m(id)
          cross join lateral (
            select er.address, er.outbound_message_id from ${emailRecipients} er
             where er.message_id = m.id order by er.address limit ${perMessage}
          ) r
          left join ${outboundMessages} o on o.id = r.outbound_message_id
         order by m.id, r.address`,
  );
  // node-postgres answers a result object, PGlite its rows' holder: both carry `rows`.
  const rows = (Array.isArray(found) ? found : (found as { rows: unknown[] }).rows) as {
    message_id: string;
    address: string;
    status: DeliveryStatus;
  }[];
  for (const row of rows) {
    const list = result.get(row.message_id) ?? [];
    list.push({ participantEmail: row.address, status: row.status });
    result.set(row.message_id, list);
  }
  return result;
}
