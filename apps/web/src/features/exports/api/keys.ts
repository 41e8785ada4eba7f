/** Cache keys of the Data export tab; a start refreshes the list. */
export const exportKeys = {
  list: (studyId: string) => ['exports', 'list', studyId] as const,
  one: (studyId: string, exportId: string) => ['exports', 'one', studyId, exportId] as const,
};
