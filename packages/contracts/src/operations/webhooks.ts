/** Calls that outside services make to the platform (not people): Google Health's notifications. */

import { defineOperation } from './operation.js';

const tags = ['webhooks'] as const;

export const googleHealthNotification = defineOperation({
  method: 'POST',
  path: '/webhooks/google-health',
  summary: 'Receives a Google Health change notification (or the endpoint check)',
  description: [
    'Called by Google only. Every call must carry `Authorization` equal to the configured secret;',
    'anything else answers 401 before the body is read. `{"type":"verification"}` with the secret',
    'answers 201 (the check Google makes when the subscriber is registered). A notification must',
    'also carry `GOOGLE-HEALTH-API-SIGNATURE` (Tink ECDSA P-256 over the raw body, checked against',
    "Google's public keyset); a good one is stored and answered 204 at once, and processed later.",
    'A body already received answers 204 again and is stored once. Refusals are counted per reason.',
  ].join(' '),
  tags,
  auth: 'public',
  response: 'raw',
  rawResponse: [
    { status: 201, description: 'The endpoint check with the secret: the subscriber is confirmed' },
    { status: 204, description: 'A good notification, stored (or already received)' },
  ],
  errors: { 401: ['WEBHOOK_UNAUTHORIZED', 'WEBHOOK_SIGNATURE_INVALID'] },
});
