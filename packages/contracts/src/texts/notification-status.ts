/**
 * Texts of the master dashboard's card on Google Health's change notifications (all ours): what
 * Google says of the webhook subscriber, what arrived, what waits, and what was refused, each
 * with what an operator can do about it.
 */

import type {
  NotificationRefusal,
  SubscriberLookupFailure,
} from '../schemas/notification-status.js';

const CREATE_COMMAND = 'npm run admin -- health-subscriber create';

/** '45 s', '12 min', '3 h 5 min', '2 d 4 h': how long something has waited. */
function waitedFor(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return `${Math.floor(Math.max(0, ms) / 1000)} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

export const NOTIFICATION_STATUS_TEXTS = {
  title: 'Google Health change notifications',
  intro:
    'Google tells this server when a participant’s data changes, so new data is fetched without waiting for the hourly sweep.',
  loadFailed: 'The notification status could not be loaded.',
  checkedAt: (time: string) => `Checked with Google at ${time}`,
  subscriber: {
    heading: 'Webhook subscriber',
    registered: 'Registered with Google',
    notRegistered: 'Not registered',
    notConfigured: 'Not configured',
    lookupFailed: 'Google’s answer unavailable',
    name: 'Subscriber',
    state: 'State at Google',
    endpoint: 'Endpoint',
    thisEndpoint: 'This server’s endpoint',
    otherEndpoint: (ours: string) =>
      `Not this server’s endpoint: Google sends the notifications elsewhere. This server expects ${ours}. Run ${CREATE_COMMAND} on this server to point the subscriber here.`,
    secret: 'Secret',
    secretSet: 'Set',
    secretNotSet:
      'Not set: Google sends no Authorization header, and every notification is refused.',
    policy: 'Subscription policy',
    policies: {
      AUTOMATIC: 'Automatic: every participant who connects is subscribed',
      MANUAL: 'Manual: each participant must be subscribed one by one',
    } as Record<string, string>,
    dataTypes: (n: number) => `Data types (${n})`,
    noDataTypes: 'None',
    missingDataTypes: (types: string) =>
      `Not covered, though the research data types need them: ${types}. Run ${CREATE_COMMAND} to add them.`,
    notRegisteredText: `No subscriber of the Cloud project sends notifications to this server, so new data arrives only with the hourly sweep. Register one with ${CREATE_COMMAND}.`,
    others: (names: string) => `The project’s other subscribers: ${names}.`,
    notConfiguredText: (settings: string) =>
      `This server cannot ask Google about its subscriber: ${settings} not set. Set the service account’s key file and the Cloud project number (see the operators’ guide).`,
    failures: {
      key_file: 'The service account’s key file could not be read.',
      token: 'The service account could not get an access token from Google.',
      unauthenticated: 'Google did not accept the service account.',
      permission_denied: 'Google refused the service account’s request.',
      unavailable: 'Google could not be reached.',
      timeout: 'Google did not answer in time. The card asks again in a minute.',
      invalid_response: 'Google’s answer could not be read.',
    } satisfies Record<SubscriberLookupFailure, string>,
    secretMissing:
      'GOOGLE_HEALTH_WEBHOOK_SECRET is not set: this server refuses every notification.',
  },
  received: {
    heading: 'Received',
    last: 'Last notification',
    none: 'None yet',
    lastValue: (time: string, dataType: string) => `${time} (${dataType})`,
    last24Hours: 'In the last 24 hours',
  },
  backlog: {
    heading: 'Backlog',
    unresolved: 'Notifications not yet processed',
    pending: 'Participant days waiting to be fetched',
    processing: 'Participant days being fetched',
    oldestUnresolved: 'Oldest unprocessed notification',
    oldestPending: 'Oldest waiting day',
    /** How long something has waited, then since when. */
    waited: (ms: number, since: string) => `${waitedFor(ms)} (since ${since})`,
    none: 'None',
  },
  refusals: {
    heading: 'Refused calls',
    tableLabel: 'Refused calls of the last 7 days, by reason',
    reason: 'Reason',
    today: 'Today (UTC)',
    last7Days: 'Last 7 days',
    none: 'No call to the webhook was refused in the last 7 days.',
    reasons: {
      missing_authorization: {
        label: 'No secret sent',
        meaning:
          'The call carried no Authorization header. Google’s endpoint check sends one such call on purpose each time the subscriber is registered or updated; otherwise Google always sends the secret, so these are most likely scanners, and a few need no action.',
      },
      wrong_authorization: {
        label: 'Wrong secret',
        meaning:
          'The Authorization header is not GOOGLE_HEALTH_WEBHOOK_SECRET (nor GOOGLE_HEALTH_WEBHOOK_SECRET_PREVIOUS). If these are Google’s calls, the subscriber holds another secret: check GOOGLE_HEALTH_WEBHOOK_SECRET, then run health-subscriber create.',
      },
      not_configured: {
        label: 'No secret configured',
        meaning:
          'GOOGLE_HEALTH_WEBHOOK_SECRET is not set, so every call is refused. Set it, restart the server, then run health-subscriber create.',
      },
      missing_signature: {
        label: 'Not signed',
        meaning:
          'The secret was right but the GOOGLE-HEALTH-API-SIGNATURE header was missing. Google signs every notification: check that no proxy in front of the server drops the header.',
      },
      malformed_signature: {
        label: 'Unreadable signature',
        meaning:
          'The signature header could not be decoded. Check that no proxy in front of the server rewrites headers.',
      },
      unknown_key: {
        label: 'Unknown signing key',
        meaning:
          'The signature names a key that is not in Google’s public keyset. A few after Google rotates its keys are harmless; many mean GOOGLE_HEALTH_WEBHOOK_KEYSET_URL is wrong.',
      },
      bad_signature: {
        label: 'Signature does not match',
        meaning:
          'The body is not the one that was signed: a proxy changed it on the way (re-encoding or compressing JSON), or the call is forged.',
      },
      keyset_unavailable: {
        label: 'Google’s keyset unreachable',
        meaning:
          'The server could not download Google’s public keyset to check signatures (Google sends these notifications again). Check that the server can reach GOOGLE_HEALTH_WEBHOOK_KEYSET_URL.',
      },
      invalid_payload: {
        label: 'Unreadable notification',
        meaning:
          'A correctly signed body that is not a notification this server understands: Google may have changed its format. Report it to the developers.',
      },
    } satisfies Record<NotificationRefusal, { label: string; meaning: string }>,
  },
} as const;
