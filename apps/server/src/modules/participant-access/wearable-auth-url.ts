/**
 * Where enrolment gets the wearable authorization address for a participant. The wearables
 * service creates it (opaque state bound to study, participant and PKCE verifier); enrolment
 * depends only on this signature so either side can change on its own.
 */
export type WearableAuthUrl = (participant: { id: string; studyId: string }) => Promise<string>;

export function wearableAuthUrlFrom(wearables: {
  authorizationUrl(
    participant: { id: string; studyId: string },
    options?: { mode?: 'popup' | 'redirect' },
  ): Promise<{ authUrl: string }>;
}): WearableAuthUrl {
  return async (participant) =>
    (await wearables.authorizationUrl(participant, { mode: 'redirect' })).authUrl;
}
