/**
 * Every per-route rate limit, by name, in one place: a route names its policy instead of carrying
 * a number, so the budgets can be read and compared side by side. These come on top of the
 * global per-address limit (`RATE_LIMIT_MAX`, see security.ts).
 */

/** A budget of calls per client address per minute, as Fastify's rate-limit route config. */
const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } }) as const;

/**
 * The per-address budget of every public participant call. A clinic's or a class's Wi-Fi puts a
 * whole group behind one address, so it is sized for about a hundred people enrolling together;
 * guessing is stopped by the limits that follow the person instead of the network
 * (`SUBJECT_LIMITS` below, and per destination and per code in the verification service).
 */
export const PARTICIPANT_ADDRESS_PER_MINUTE = 300;

/** Per client address: route `config` of costly or guessable calls. */
export const RATE_LIMITS = {
  // Researcher accounts
  signIn: perMinute(30),
  register: perMinute(10),
  verifyToken: perMinute(120),
  forgotPassword: perMinute(5),
  checkResetToken: perMinute(30),
  resetPassword: perMinute(10),
  confirmEmail: perMinute(20),
  resendConfirmation: perMinute(5),
  googleSignIn: perMinute(20),
  setupStatus: perMinute(20),
  setupMaster: perMinute(10),
  submitApplication: perMinute(10),
  // The master's dashboard: its notification card may ask Google (kept for a while)
  notificationStatus: perMinute(30),
  // Studies, rosters, mail and extraction (signed-in researchers)
  createStudy: perMinute(20),
  joinStudy: perMinute(20),
  notifyResearcher: perMinute(5),
  addPendingParticipants: perMinute(30),
  uploadRoster: perMinute(20),
  sendStudyEmail: perMinute(20),
  extraction: perMinute(30),
  startExport: perMinute(10),
  downloadExport: perMinute(30),
  // Creating and revoking personal access tokens (calls made with a token have their own
  // per-token budget, ACCESS_TOKEN_RATE_LIMIT)
  accessTokens: perMinute(30),
  // An audit trail's CSV reads the whole trail (a page is an index range: the global limit)
  auditCsv: perMinute(10),
  // The owner's consent form and a withdrawal recorded by a researcher
  consentWrite: perMinute(30),
  // Public participant calls (enrolment, codes, wearable step, study-code check)
  participantAddress: perMinute(PARTICIPANT_ADDRESS_PER_MINUTE),
} as const;

/**
 * Google Health's change notifications, per sending address: generous, since Google delivers a
 * backlog in bursts after an outage (`GOOGLE_HEALTH_WEBHOOK_RATE_LIMIT`). The global limit
 * leaves paths outside `/api/` alone; this one counts them.
 */
export const webhookRateLimit = (max: number) =>
  ({ rateLimit: { max, timeWindow: '1 minute', allowList: () => false } }) as const;

/** A second limit per person (study code and e-mail, session …): `group` names its counter. */
export interface SubjectLimit {
  group: string;
  max: number;
}

/** Per person per minute, on top of `RATE_LIMITS.participantAddress`: see perSubject. */
export const SUBJECT_LIMITS = {
  enrollDirect: { group: 'enroll-direct', max: 10 },
  checkPending: { group: 'check-pending', max: 10 },
  enroll: { group: 'enroll', max: 10 },
  updateInfo: { group: 'update-info', max: 5 },
  verifySecure: { group: 'verify-secure', max: 10 },
  secureVerify: { group: 'secure-verify', max: 10 },
  secureSend: { group: 'secure-send', max: 5 },
  secureComplete: { group: 'secure-complete', max: 5 },
  sendEmailCode: { group: 'send-email-code', max: 8 },
  verifyEmailCode: { group: 'verify-email-code', max: 10 },
  sendPhoneCode: { group: 'send-phone-code', max: 8 },
  verifyPhoneCode: { group: 'verify-phone-code', max: 10 },
  verificationStatus: { group: 'verification-status', max: 20 },
} as const satisfies Record<string, SubjectLimit>;
