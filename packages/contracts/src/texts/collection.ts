/** The reasons continuous collection gives a partition it marks (researchers read them). */
export const COLLECTION_REASONS = {
  revoked: 'The participant’s Google grant is no longer valid; they need to connect again.',
  scopeMissing: (scopes: string) => `Scope not granted: ${scopes}`,
  failed: (detail: string) => `The provider call failed: ${detail}`,
  /** A partition deleted at the source whose files the study's setting had removed. */
  removedAtSource:
    'The participant deleted this data in their Google account; it was removed from the study’s dataset, as the study’s setting asks.',
} as const;

/** The study setting for data a participant deletes in their Google account (create and edit). */
export const DELETED_AT_SOURCE_SETTING_TEXTS = {
  title: 'When a participant deletes data in their Google account',
  keep: 'Keep our copy, marked as deleted at the source',
  keepHelp:
    'Default. The data already collected stays in the study’s dataset, marked as deleted by the participant.',
  remove: 'Remove it from the study’s dataset',
  removeHelp:
    'The files of those days are deleted from the study’s storage; the dataset still lists the days as deleted at the source.',
} as const;
