import { CONSENT_MESSAGES } from '@research/contracts';
import type { Platform } from './app-platform.js';
import { createAccessTokensService } from './modules/access-tokens/index.js';
import { createApplicationsService } from './modules/applications/index.js';
import {
  createAuthService,
  createGoogleSignIn,
  createMasterService,
} from './modules/auth/index.js';
import { consentHoldOf, createConsentService } from './modules/consent/index.js';
import { latestCollectedDays } from './modules/dataset/index.js';
import { createEmailService } from './modules/email/index.js';
import {
  createEnrolmentService,
  createVerificationService,
  systemClock,
  wearableAuthUrlFrom,
} from './modules/participant-access/index.js';
import { createParticipantsService } from './modules/participants/index.js';
import { createRemindersService } from './modules/reminders/index.js';
import { createStudiesService } from './modules/studies/index.js';
import { createWearablesService } from './modules/wearables/index.js';
import { subkey } from './platform/crypto.js';
import type { JobQueue } from './platform/jobs.js';

/**
 * What the services are built from: the platform without the job queue and the mailer, so the
 * services exist before the queue starts (jobs resumed at boot find them ready). Messaging
 * reaches the queue lazily.
 */
export type ServiceDeps = Omit<Platform, 'jobs' | 'mailer'>;

/** The domain services, built once per app from the platform adapters. */
export interface ServiceHooks {
  /** The job queue, once started (a withdrawal queues its follow-up in its own transaction). */
  jobs: () => JobQueue;
  log?: { error: (details: object, message: string) => void };
  /** A wearable connection became active (continuous collection queues its backfill). */
  onWearableConnected?: (participantId: string) => Promise<unknown>;
  /** A withdrawal in a study that deletes the data: the participant's dataset partitions go. */
  removeCollectedData?: (studyId: string, participantId: string) => Promise<number>;
}

export function createServices(platform: ServiceDeps, hooks: ServiceHooks) {
  const { db, config, cipher, messaging, objectStore } = platform;
  const auth = createAuthService({ db, config, messaging });
  const studies = createStudiesService({ db, config, cipher, messaging, objectStore });
  const wearables = createWearablesService({
    db,
    databaseKind: platform.database.kind,
    config,
    cipher,
    messaging,
    stateKey: subkey(platform.keyRing, 'wearable-decoy-states'),
    ...(hooks.onWearableConnected ? { onConnected: hooks.onWearableConnected } : {}),
    connectRefusal: async (participant) => {
      const hold = await consentHoldOf(db, {
        participantId: participant.id,
        studyId: participant.studyId,
      });
      if (!hold) return null;
      return hold === 'withdrawn'
        ? CONSENT_MESSAGES.alreadyWithdrawn
        : CONSENT_MESSAGES.signBeforeConnecting;
    },
  });
  const verification = createVerificationService({
    db,
    messaging,
    keyRing: platform.keyRing,
    clock: systemClock(),
  });
  return {
    auth,
    master: createMasterService({ db, config }),
    google: createGoogleSignIn({ db, config, cipher, auth }),
    applications: createApplicationsService({ db, config, messaging, objectStore }),
    studies,
    participants: createParticipantsService({
      db,
      objectStore,
      studies,
      revokeWearable: (participantId, actorId) =>
        wearables.revokeIfConnected(participantId, actorId),
      // Injected: participant access reads participants, so it cannot be imported here.
      changeVerifiedEmail: (tx, studyId, participantId, email) =>
        verification.changeEmail(tx, studyId, participantId, email),
      // Injected: the dataset builds on extraction, which reads participants.
      latestDays: (studyId, participantIds) => latestCollectedDays(db, studyId, participantIds),
    }),
    email: createEmailService({ db, config, messaging, studies }),
    accessTokens: createAccessTokensService({ db }),
    consent: createConsentService({
      db,
      config,
      objectStore,
      messaging,
      bucketOf: studies.bucketOf,
      linkKey: subkey(platform.keyRing, 'consent-copy-links'),
      revokeWearable: (participantId, actorId) =>
        wearables.revokeIfConnected(participantId, actorId),
      removeCollectedData: async (studyId, participantId) =>
        hooks.removeCollectedData ? hooks.removeCollectedData(studyId, participantId) : 0,
      jobs: hooks.jobs,
      ...(hooks.log ? { log: hooks.log } : {}),
    }),
    wearables,
    verification,
    // The digest and reminder jobs: a failed run is tried again a few times, then waits a day.
    reminders: createRemindersService({
      db,
      config,
      messaging,
      retry: { limit: 3, delaySeconds: 60 },
    }),
    enrolment: createEnrolmentService({
      db,
      config,
      objectStore,
      verification,
      wearableAuthUrl: wearableAuthUrlFrom(wearables),
      hasWearableAccessToken: wearables.hasAccessToken,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
