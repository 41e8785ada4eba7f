import { EXPORT_LIST_LIMIT } from '@research/contracts';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type ExportRow, exportFiles, exports } from '../../db/schema/index.js';

/** The exports and their files (this module's tables). */
export function exportsRepository(db: DbOrTx) {
  return {
    async insert(row: typeof exports.$inferInsert): Promise<ExportRow> {
      const [created] = await db.insert(exports).values(row).returning();
      return created as ExportRow;
    },
    async byId(id: string): Promise<ExportRow | null> {
      const [row] = await db.select().from(exports).where(eq(exports.id, id));
      return row ?? null;
    },
    async ofStudy(studyId: string, id: string): Promise<ExportRow | null> {
      const [row] = await db
        .select()
        .from(exports)
        .where(and(eq(exports.studyId, studyId), eq(exports.id, id)));
      return row ?? null;
    },
    /** The study's latest exports, newest first. */
    list(studyId: string) {
      return db
        .select()
        .from(exports)
        .where(eq(exports.studyId, studyId))
        .orderBy(desc(exports.createdAt), desc(exports.id))
        .limit(EXPORT_LIST_LIMIT);
    },
    files(exportId: string) {
      return db
        .select()
        .from(exportFiles)
        .where(eq(exportFiles.exportId, exportId))
        .orderBy(asc(exportFiles.path));
    },
    async update(id: string, set: Partial<typeof exports.$inferInsert>) {
      await db.update(exports).set(set).where(eq(exports.id, id));
    },
    async clearFiles(exportId: string) {
      await db.delete(exportFiles).where(eq(exportFiles.exportId, exportId));
    },
    async complete(
      exportId: string,
      files: { path: string; key: string; bytes: number; sha256: string; rows: number | null }[],
      set: { missingPartitions: number; bytes: number; completedAt: Date },
    ) {
      if (files.length > 0) {
        await db.insert(exportFiles).values(files.map((file) => ({ exportId, ...file })));
      }
      await db
        .update(exports)
        .set({ ...set, status: 'completed', error: null })
        .where(eq(exports.id, exportId));
    },
  };
}
