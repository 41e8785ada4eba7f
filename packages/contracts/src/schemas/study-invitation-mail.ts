/**
 * The mail the study detail screen sends, built here so that the web's Review & Edit shows
 * exactly what the server would send: the generated participant invitation (and what an edited
 * one must keep), the collaborator invitation and the credentials the server appends to it.
 */

import { INVITE_MESSAGES, STUDY_MESSAGES } from '../texts/messages.js';
import { STUDY_MAIL_TEXTS } from '../texts/study-answers.js';

/** The description line of the generated invitation. */
const INVITATION_DESCRIPTION_LABEL = 'Study description:';
const EMPTIED_DESCRIPTION_LINE = new RegExp(
  `^[ \\t]*${INVITATION_DESCRIPTION_LABEL}[ \\t]*\\r?$`,
  'im',
);

/**
 * 'Study description is required' applies to the invitation, not to the study: a study may have
 * no description (the generated body then reads 'Study description: No description
 * provided'), so requiring the study's description would contradict it. What may not be empty is
 * the invitation's description line: the researcher may edit it, or drop the line altogether,
 * but not send 'Study description:' with nothing after it.
 */
export function invitationBodyProblem(body: string): string | null {
  return EMPTIED_DESCRIPTION_LINE.test(body) ? INVITE_MESSAGES.studyDescriptionRequired : null;
}

export interface InvitationEmailInput {
  studyName: string;
  description?: string | null;
  duration?: string | null;
  studyCode: string;
  /** Origin of the web app, e.g. 'https://study.example.org' (the server's PUBLIC_URL). */
  baseUrl: string;
}

/** `${baseUrl}/participant/enroll?code=…` — the link an invitation carries. */
export const enrollLink = (baseUrl: string, studyCode: string): string =>
  `${baseUrl.replace(/\/+$/, '')}/participant/enroll?code=${encodeURIComponent(studyCode)}`;

/** Generated invitation subject and body. */
export function invitationEmail(input: InvitationEmailInput): { subject: string; body: string } {
  const description = input.description?.trim() || STUDY_MESSAGES.noDescription;
  const duration = input.duration?.trim() || INVITE_MESSAGES.durationNotSpecified;
  return {
    subject: INVITE_MESSAGES.invitationSubject(input.studyName),
    body: [
      'Hello,',
      '',
      `You are invited to participate in the research study "${input.studyName}".`,
      '',
      `${INVITATION_DESCRIPTION_LABEL} ${description}`,
      `Duration: ${duration}`,
      '',
      'To take part, open the enrollment page, enter the study code below and connect your Fitbit account so that your wearable data can be shared with the study.',
      '',
      ...STUDY_MAIL_TEXTS.enrolLines(input.studyCode, enrollLink(input.baseUrl, input.studyCode)),
      '',
      'Thank you,',
      'The Research Team',
    ].join('\n'),
  };
}

/** Default collaborator invitation subject and body. */
export function collaboratorInvitationDefaults(studyName: string): {
  subject: string;
  body: string;
} {
  return {
    subject: INVITE_MESSAGES.collaboratorSubject(studyName),
    body: [
      'Hello,',
      '',
      `You are invited to collaborate on the research study "${studyName}".`,
      '',
      'Use the research dashboard to join the study with the study code and password below.',
    ].join('\n'),
  };
}

/** `${baseUrl}/researcher/dashboard?code=…&password=…` — opens the join dialog filled in. */
export const collaboratorJoinLink = (
  baseUrl: string,
  studyCode: string,
  password: string | null,
): string => {
  const params = new URLSearchParams({ code: studyCode });
  if (password) params.set('password', password);
  return `${baseUrl.replace(/\/+$/, '')}/researcher/dashboard?${params.toString()}`;
};

/**
 * The part the server appends to a collaborator invitation: code, password and join link. The
 * web's review shows it with `password: null` (the browser never sees the password).
 */
export function collaboratorCredentialsBlock(input: {
  studyCode: string;
  password: string | null;
  baseUrl: string;
}): string {
  return [
    `Study code: ${input.studyCode}`,
    `Study password: ${input.password ?? '(added when the email is sent)'}`,
    `Join here: ${collaboratorJoinLink(input.baseUrl, input.studyCode, input.password)}`,
  ].join('\n');
}
