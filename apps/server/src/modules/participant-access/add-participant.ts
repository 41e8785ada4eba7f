import { randomBytes } from 'node:crypto';
import {
  type AddParticipantInput,
  STUDY_MESSAGES,
  storedPhone,
  wearablesApi,
} from '@research/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { route } from '../../http/operation-route.js';
import { insertParticipantRow, liveParticipantIdByAddress } from '../participants/index.js';
import { findLiveStudyByCode } from '../studies/index.js';
import { upsertSubject } from './verification.repository.js';

/**
 * An operator's way to put a participant into a study from a terminal
 * (`npm run admin -- add-participant`), for demos and browser tests. Not part of the public API:
 * the route below only answers loopback callers holding the admin key, like create-master.
 */

export async function addParticipant(
  db: Db,
  input: AddParticipantInput,
): Promise<{ participantId: string; studyCode: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const found = await findLiveStudyByCode(tx, input.studyCode);
    if (!found) throw new AppError(404, 'STUDY_NOT_FOUND', STUDY_MESSAGES.notFound);
    const study = found.study;
    const existing = await liveParticipantIdByAddress(tx, study.id, input.email);
    if (existing) return { participantId: existing, studyCode: input.studyCode, created: false };
    // The verification record enrolment would have made: without it the participant could
    // never prove their address, and so never connect a wearable.
    const subject = await upsertSubject(tx, {
      studyId: study.id,
      email: input.email,
      participantId: `P${randomBytes(8).toString('hex')}`,
    });
    await insertParticipantRow(tx, {
      id: subject.participantId,
      studyId: study.id,
      email: input.email,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      phoneNumber: storedPhone(input.phoneNumber),
    });
    return { participantId: subject.participantId, studyCode: input.studyCode, created: true };
  });
}

/** The operator route, only where the local admin is open (see http/local-admin.ts). */
export const addParticipantRoute: FastifyPluginAsync = async (app) => {
  const guard = app.localAdmin;
  if (!guard) return;
  route(app, wearablesApi.addParticipant, {
    preHandler: guard,
    handler: async (request) => ({
      success: true as const,
      ...(await addParticipant(app.platform.db, request.body)),
    }),
  });
};
