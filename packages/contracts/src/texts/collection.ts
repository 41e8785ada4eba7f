/** The reasons continuous collection gives a partition it marks (researchers read them). */
export const COLLECTION_REASONS = {
  revoked: 'The participant’s Google grant is no longer valid; they need to connect again.',
  scopeMissing: (scopes: string) => `Scope not granted: ${scopes}`,
  failed: (detail: string) => `The provider call failed: ${detail}`,
  deletedAtSource:
    'Google reported this data deleted (the participant deleted it, withdrew access or closed their account); the study’s copy is kept.',
  removedAtSource:
    'Google reported this data deleted (the participant deleted it, withdrew access or closed their account); it was removed from the study’s dataset.',
} as const;
