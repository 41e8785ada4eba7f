/**
 * Cache keys of the wearable listing. It sits under the study screen's root key
 * (['study-detail', studyId]) so the screen's Refresh reloads it too; features do not import
 * each other, so the root is repeated here.
 */
export const wearableKeys = {
  study: (studyId: string) => ['study-detail', studyId] as const,
  authorizations: (studyId: string) =>
    [...wearableKeys.study(studyId), 'wearable-authorizations'] as const,
};
