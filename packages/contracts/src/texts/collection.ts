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

/** The study setting for data a participant deletes in their Google account (create and edit). */
export const DELETED_AT_SOURCE_SETTING_TEXTS = {
  title: 'When a participant deletes data in their Google account',
  keep: 'Keep the study’s copy, marked as deleted at the source',
  keepHelp:
    'Default. The data already collected stays in the study’s dataset, marked as deleted at the source. Google reports data as deleted also when a participant withdraws access or closes their account.',
  remove: 'Remove it from the study’s dataset',
  removeHelp:
    'The files of those days are deleted from the study’s storage, and so is everything collected from a participant who withdraws access at Google; the dataset still lists the days as deleted at the source.',
} as const;
