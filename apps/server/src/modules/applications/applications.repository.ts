import type { ResearcherApplicationView } from '@research/contracts';
import { and, count, desc, eq, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { applicationDocuments, researcherApplications, users } from '../../db/schema/index.js';

export type ApplicationRow = typeof researcherApplications.$inferSelect;
export type DocumentRow = typeof applicationDocuments.$inferSelect;
type Status = ApplicationRow['status'];

const live = isNull(researcherApplications.archivedAt);

export async function findLiveApplicationOfUser(
  db: DbOrTx,
  userId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(researcherApplications)
    .where(and(eq(researcherApplications.userId, userId), live));
  return row;
}

/**
 * The user's latest rejected application, live or archived (a resubmission or a master's reset
 * archives it), whatever they applied with since.
 */
export async function findLatestRejectedApplicationOfUser(
  db: DbOrTx,
  userId: string,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(researcherApplications)
    .where(
      and(
        eq(researcherApplications.userId, userId),
        or(
          eq(researcherApplications.status, 'rejected'),
          isNotNull(researcherApplications.archivedAt),
        ),
      ),
    )
    .orderBy(desc(researcherApplications.submittedAt), desc(researcherApplications.id))
    .limit(1);
  return row;
}

export async function findApplication(db: DbOrTx, id: string): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(researcherApplications)
    .where(and(eq(researcherApplications.id, id), live));
  return row;
}

export async function insertApplication(
  db: DbOrTx,
  values: typeof researcherApplications.$inferInsert,
) {
  const [row] = await db.insert(researcherApplications).values(values).returning();
  if (!row) throw new Error('application not inserted');
  return row;
}

export async function archiveApplication(db: DbOrTx, id: string) {
  await db
    .update(researcherApplications)
    .set({ archivedAt: new Date() })
    .where(eq(researcherApplications.id, id));
}

/** Moves a live application from one status to another; undefined when it was not in `from`. */
export async function transition(
  db: DbOrTx,
  id: string,
  from: Status,
  values: Partial<typeof researcherApplications.$inferInsert>,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .update(researcherApplications)
    .set(values)
    .where(and(eq(researcherApplications.id, id), eq(researcherApplications.status, from), live))
    .returning();
  return row;
}

export async function insertDocuments(
  db: DbOrTx,
  rows: (typeof applicationDocuments.$inferInsert)[],
) {
  if (rows.length > 0) await db.insert(applicationDocuments).values(rows);
}

export async function findDocument(db: DbOrTx, applicationId: string, documentId: string) {
  const [row] = await db
    .select()
    .from(applicationDocuments)
    .where(
      and(
        eq(applicationDocuments.applicationId, applicationId),
        eq(applicationDocuments.id, documentId),
      ),
    );
  return row;
}

async function documentsOf(
  db: DbOrTx,
  applicationIds: string[],
): Promise<Map<string, DocumentRow[]>> {
  const byApplication = new Map<string, DocumentRow[]>();
  if (applicationIds.length === 0) return byApplication;
  const rows = await db
    .select()
    .from(applicationDocuments)
    .where(inArray(applicationDocuments.applicationId, applicationIds))
    .orderBy(applicationDocuments.uploadedAt);
  for (const row of rows)
    byApplication.set(row.applicationId, [...(byApplication.get(row.applicationId) ?? []), row]);
  return byApplication;
}

export function toView(row: ApplicationRow, documents: DocumentRow[]): ResearcherApplicationView {
  return {
    id: row.id,
    userId: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    dateOfBirth: row.dateOfBirth,
    phoneNumber: row.phoneNumber,
    institution: row.institution,
    position: row.position,
    department: row.department,
    researchArea: row.researchArea,
    description: row.description,
    status: row.status,
    submittedAt: row.submittedAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewNotes: row.reviewNotes,
    verificationDocuments: documents.map((d) => ({
      id: d.id,
      name: d.fileName,
      size: d.sizeBytes,
      type: d.contentType,
      uploadedAt: d.uploadedAt.toISOString(),
    })),
  };
}

export async function viewsOf(
  db: DbOrTx,
  rows: ApplicationRow[],
): Promise<ResearcherApplicationView[]> {
  const documents = await documentsOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toView(row, documents.get(row.id) ?? []));
}

export async function listApplications(
  db: DbOrTx,
  filter: {
    status?: Status | undefined;
    email?: string | undefined;
    limit: number;
    offset: number;
  },
) {
  // By status or e-mail: the current applications. Without either: every application ever
  // submitted, reset and replaced ones included, so 'Total Applications' keeps counting them
  // after a reset for resubmission.
  const conditions: SQL[] = filter.status || filter.email ? [live] : [];
  if (filter.status) conditions.push(eq(researcherApplications.status, filter.status));
  if (filter.email)
    conditions.push(eq(researcherApplications.email, filter.email.trim().toLowerCase()));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(researcherApplications)
      .where(where)
      .orderBy(desc(researcherApplications.submittedAt), desc(researcherApplications.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(researcherApplications).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function listResearchers(
  db: DbOrTx,
  filter: { approvedOnly: boolean; limit: number; offset: number },
) {
  const where = filter.approvedOnly
    ? and(live, eq(researcherApplications.status, 'approved'))
    : live;
  const [rows, [total]] = await Promise.all([
    db
      .select({ application: researcherApplications, lastLoginAt: users.lastLoginAt })
      .from(researcherApplications)
      .innerJoin(users, eq(users.id, researcherApplications.userId))
      .where(where)
      .orderBy(desc(researcherApplications.reviewedAt), desc(researcherApplications.submittedAt))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ n: count() }).from(researcherApplications).where(where),
  ]);
  return { rows, totalCount: total?.n ?? 0 };
}
