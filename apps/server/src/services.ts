import type { Platform } from './app.js';
import { createApplicationsService } from './modules/applications/applications.service.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createGoogleSignIn } from './modules/auth/google-sign-in.js';
import { createMasterService } from './modules/auth/master.service.js';
import { createEmailService } from './modules/email/email.service.js';
import { createEnrolmentService } from './modules/participant-access/enrolment.service.js';
import { wearableAuthUrlFrom } from './modules/participant-access/wearable-auth-url.js';
import { createParticipantsService } from './modules/participants/participants.service.js';
import { createStudiesService } from './modules/studies/studies.service.js';
import {
  createVerificationService,
  systemClock,
} from './modules/participant-access/verification.service.js';
import { createWearablesService } from './modules/wearables/wearables.service.js';
import { subkey } from './platform/crypto.js';

/** The domain services, built once per app from the platform adapters. */
export function createServices(platform: Platform) {
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
    }),
    email: createEmailService({ db, config, messaging, studies }),
    wearables,
    verification,
    enrolment: createEnrolmentService({
      db,
      config,
      objectStore,
      verification,
      wearableAuthUrl: wearableAuthUrlFrom(wearables),
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
