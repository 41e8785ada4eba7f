import { asc, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type StudySettingsColumn, studies } from '../../db/schema/index.js';

/** Every live study with its name and settings (the daily digest and reminders go through them). */
export async function liveStudies(
  db: DbOrTx,
): Promise<{ id: string; name: string; settings: StudySettingsColumn }[]> {
  return db
    .select({ id: studies.id, name: studies.name, settings: studies.settings })
    .from(studies)
    .where(isNull(studies.deletedAt))
    .orderBy(asc(studies.createdAt), asc(studies.id));
}
