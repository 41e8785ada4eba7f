import type { JobInsert, PgBoss } from 'pg-boss';
import type { SqlExecutor } from '../db/client.js';

/**
 * pg-boss 11 rebuilt its tables and upgrades no database whose queue pg-boss 10 made: its start
 * stops with "Version 24 not found", and its authors advise a new schema beside the old one with
 * the waiting jobs moved across. That is done here, on start, so a deployment upgrades by
 * restarting: the old schema is set aside before pg-boss starts, and once pg-boss has made its new
 * one and the queues exist, the jobs still waiting or running in the old one are queued again.
 * Every process of the old version must have stopped first (they would find their schema gone).
 */

/** The old schema while its jobs still have to be carried over. */
const pendingSchema = (schema: string) => `${schema}_v10`;
/** The old schema once its jobs are carried over, kept for its history of finished jobs. */
const doneSchema = (schema: string) => `${schema}_v10_done`;
/** pg-boss 10's schema version; 11 and later start at 25. */
const VERSION_10 = 24;

/**
 * Renames pg-boss 10's schema out of pg-boss's way. One statement under a lock, so processes
 * starting together set it aside once.
 */
export async function setAsideVersion10Schema(executor: SqlExecutor, schema: string) {
  await executor.executeSql(`
    DO $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${schema} v10 set aside'));
      IF to_regclass('${schema}.version') IS NOT NULL THEN
        IF (SELECT version FROM ${schema}.version LIMIT 1) <= ${VERSION_10} THEN
          ALTER SCHEMA ${schema} RENAME TO ${pendingSchema(schema)};
        END IF;
      END IF;
    END $$`);
}

interface OldJob {
  id: string;
  name: string;
  data: object | null;
  priority: number;
  start_after: Date;
  singleton_key: string | null;
}

/**
 * Queues again, in pg-boss's new schema, the jobs of pg-boss 10's schema that had not ended, with
 * their ids: a second process doing the same at once adds nothing (pg-boss ignores an id it already
 * has). A job that was running starts over, as after a crash; attempts count from zero again.
 * Jobs of queues this application no longer defines stay behind in the kept schema.
 */
export async function carryOverVersion10Jobs(
  boss: PgBoss,
  executor: SqlExecutor,
  schema: string,
  definitions: { name: string }[],
) {
  const pending = pendingSchema(schema);
  const found = await executor.executeSql(
    `SELECT to_regclass('${pending}.job') IS NOT NULL AS found`,
  );
  if (!(found.rows[0] as { found: boolean }).found) return;
  const names = definitions.map((definition) => definition.name);
  // Carried only once every queue exists; a process that defines none (the schema set-up) waits.
  if (names.length === 0) return;
  const { rows } = (await executor.executeSql(
    `SELECT id, name, data, priority, start_after, singleton_key FROM ${pending}.job
      WHERE state IN ('created', 'retry', 'active') AND name = ANY($1) ORDER BY created_on`,
    [names],
  )) as unknown as { rows: OldJob[] };
  const byQueue = new Map<string, JobInsert[]>();
  for (const job of rows) {
    const jobs = byQueue.get(job.name) ?? [];
    jobs.push({
      id: job.id,
      data: job.data ?? {},
      priority: job.priority,
      startAfter: new Date(job.start_after),
      ...(job.singleton_key ? { singletonKey: job.singleton_key } : {}),
    });
    byQueue.set(job.name, jobs);
  }
  for (const [name, jobs] of byQueue) await boss.insert(name, jobs);
  await executor.executeSql(`
    DO $$
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('${schema} v10 carried over'));
      IF to_regclass('${pending}.job') IS NOT NULL THEN
        ALTER SCHEMA ${pending} RENAME TO ${doneSchema(schema)};
      END IF;
    END $$`);
}
