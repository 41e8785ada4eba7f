/** One participant of one study, as the enrolment pages' fake server answers about them. */
export const PARTICIPANT_ID = 'P0123456789abcdef';
export const EMAIL = 'p@example.org';
export const STUDY = {
  studyName: 'Sleep',
  studyDescription: 'Sleep and shifts',
  studyCode: 'ABC123',
  researcherName: 'Ada',
};

export const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

/** A verified participant session, valid for the next hour. */
export function participantSession() {
  return {
    sessionId: 'session-token',
    participantId: PARTICIPANT_ID,
    studyCode: STUDY.studyCode,
    verified: true,
    expiresAt: iso(3_600_000),
  };
}

/** verify-email-code's answer: the address verified, with the session. */
export function emailVerifiedReply() {
  return {
    body: {
      success: true,
      message: 'Email verification successful!',
      data: {
        participantId: PARTICIPANT_ID,
        email: EMAIL,
        studyCode: STUDY.studyCode,
        verificationStatus: 'email_verified',
        emailVerifiedAt: iso(0),
        phoneVerifiedAt: null,
      },
      session: participantSession(),
    },
  };
}

/** The consent step's answer for a study that asks for no consent form: it passes straight on. */
export const NO_CONSENT_REPLY = {
  body: {
    success: true,
    state: 'not-required',
    studyName: 'Sleep Study',
    version: null,
    reconsent: false,
    signature: null,
  },
};
