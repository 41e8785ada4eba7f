import type { CollectedDay } from '@research/contracts';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import type { ObjectStore } from '../../platform/object-store/types.js';
import { recordAudit } from '../audit/index.js';
import type { RequestContext } from '../auth/index.js';
import type { StudiesService, StudyAccess } from '../studies/index.js';
import type * as repo from './participants.repository.js';

/** What the participants service's parts share: their dependencies, and small conversions. */

export interface ParticipantsDeps {
  db: Db;
  objectStore: ObjectStore;
  studies: StudiesService;
  /** Revokes the participant's wearable grant at the provider (wearables service). */
  revokeWearable?: (participantId: string, actorId: string) => Promise<unknown>;
  /**
   * Moves the participant's verification to a new address, in the caller's transaction: the old
   * address stops proving who they are (participant access owns the verification tables).
   */
  changeVerifiedEmail: (
    tx: Tx,
    studyId: string,
    participantId: string,
    email: string,
  ) => Promise<void>;
  /** Each participant's latest collected day (the dataset's ledger); none when left out. */
  latestDays?: (studyId: string, participantIds: string[]) => Promise<Map<string, CollectedDay>>;
}

export interface Actor {
  id: string;
}

/** A participant and the caller's access to its study, resolved once per request. */
export interface ParticipantAccess {
  access: StudyAccess;
  participant: repo.ParticipantRecord;
}

export const iso = (value: Date | string | null | undefined) =>
  value == null ? null : new Date(value).toISOString();

export const blankToNull = (value: string | null | undefined) => {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
};

/** Ids arrive from the URL: anything but a UUID cannot name a row, and would fail the query. */
export const isUuid = (value: string) => /^[0-9a-f-]{36}$/i.test(value);

/** Records a change or read by a study member; every such event belongs to the study's trail. */
export async function audit(
  tx: DbOrTx,
  actor: Actor,
  studyId: string,
  action: string,
  targetType: string,
  targetId: string,
  ctx: RequestContext,
  details: Record<string, unknown> = {},
) {
  await recordAudit(tx, {
    actorId: actor.id,
    studyId,
    action,
    targetType,
    targetId,
    details,
    ip: ctx.ip,
  });
}
