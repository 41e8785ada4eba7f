/**
 * Adherence alerts and reminders: the members' daily digest, the participants' sync reminders
 * (mail and SMS), their stop link and its page. The reconnect reminder reuses the
 * reauthorization e-mail's own texts (REAUTH_MAIL_TEXTS) with the stop link added.
 */

import { plural } from './study-labels.js';

const days = (n: number) => `${n} ${plural(n, 'day')}`;

/** The daily adherence digest to the owner and the collaborators who opted in. */
export const DIGEST_MAIL_TEXTS = {
  subject: (studyName: string) => `Daily adherence digest: ${studyName}`,
  title: 'Daily adherence digest',
  intro: (studyName: string) => `What needs attention in "${studyName}" since the last digest.`,
  atRiskHeading: (n: number) => `Newly at risk (${n}):`,
  /** One participant: id, name when known, and the days since their device last synced. */
  atRiskLine: (participantId: string, name: string | null, daysWithoutSync: number) =>
    `${participantId}${name ? ` (${name})` : ''}: ${days(daysWithoutSync)} without a sync`,
  reauthorizationHeading: (n: number) => `Connections that need reauthorization (${n}):`,
  reauthorizationLine: (participantId: string, name: string | null) =>
    `${participantId}${name ? ` (${name})` : ''}`,
  failedHeading: (n: number) => `Failed fetches (${n}):`,
  failedLine: (participantId: string, dataType: string, day: string, reason: string | null) =>
    `${participantId}: ${dataType} on ${day}${reason ? ` (${reason})` : ''}`,
  more: (n: number) => `… and ${n} more`,
  action: 'Open the Adherence tab',
  footer:
    'You receive this digest as a member of the study. You can turn it off on the study’s Adherence tab.',
} as const;

/** The participant's reminder after days without a sync (e-mail). */
export const SYNC_REMINDER_MAIL_TEXTS = {
  subject: 'Please sync your Fitbit device',
  title: 'Time to sync your Fitbit device',
  /** `afterDays`: the study's setting, so every reminder of a study reads the same. */
  intro: (studyName: string, afterDays: number) =>
    `Your Fitbit device has not synced for the study "${studyName}" in ${days(afterDays)} or more.`,
  instruction:
    'Open the Fitbit app on your phone with your device nearby and wait a moment until it has synced. Wearing the device and syncing it keeps your study data complete.',
  participantIdLine: (participantId: string) => `Your participant ID is ${participantId}.`,
  footer:
    'You receive this e-mail because you take part in a research study. To stop these reminders, use the link below.',
} as const;

/** Shared by every reminder: the stop link and its place in the stored history. */
export const REMINDER_TEXTS = {
  stopLinkLabel: 'Stop these reminders',
  /** The history keeps the message without anyone's personal link. */
  historyLinkPlaceholder: '[personal link]',
  syncSms: (studyName: string, afterDays: number, stopUrl: string) =>
    `${studyName}: your Fitbit has not synced in ${days(afterDays)} or more. Open the Fitbit app near your device to sync. Stop reminders: ${stopUrl}`,
  reauthorizeSms: (studyName: string, reconnectUrl: string, stopUrl: string) =>
    `${studyName}: please reconnect your Fitbit device: ${reconnectUrl} Stop reminders: ${stopUrl}`,
  /** Subject of an SMS reminder's entry in the e-mail history (an SMS has none). */
  syncSmsSubject: 'Sync reminder (SMS)',
  reauthorizeSmsSubject: 'Reconnect reminder (SMS)',
} as const;

/** The server's answers to the stop link. */
export const REMINDER_MESSAGES = {
  stopped: 'You will not get any more reminders from this study.',
  linkInvalid: 'This link is not valid. Please use the link from your most recent reminder.',
} as const;

/** /participant/reminders/stop: the page the stop link opens. */
export const REMINDERS_STOP_TEXTS = {
  title: 'Stop reminders',
  intro:
    'You get these reminders because your Fitbit device has not synced for a while. Stopping them does not end your participation: the study keeps collecting your data.',
  confirm: 'Stop reminders',
  stopping: 'Stopping…',
  stoppedTitle: 'Reminders stopped',
  missingToken: 'This link is incomplete. Please open the link from your reminder again.',
  failed: 'The reminders could not be stopped right now. Please try again in a moment.',
} as const;
