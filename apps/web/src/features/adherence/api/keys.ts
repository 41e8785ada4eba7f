/**
 * Cache keys of the adherence screens. The tab's keys sit under the study screen's root
 * (['study-detail', studyId]) so that its Refresh reloads the heat map with the other tabs.
 */
export const adherenceKeys = {
  heatMap: (studyId: string, from: string, to: string) =>
    ['study-detail', studyId, 'adherence', from, to] as const,
  digest: (studyId: string) => ['study-detail', studyId, 'digest'] as const,
  participant: (participantId: string) => ['participant-charts', participantId] as const,
  charts: (participantId: string, from: string, to: string) =>
    [...adherenceKeys.participant(participantId), 'days', from, to] as const,
  heartRate: (participantId: string, date: string) =>
    [...adherenceKeys.participant(participantId), 'heart-rate', date] as const,
  info: (participantId: string) => [...adherenceKeys.participant(participantId), 'info'] as const,
  study: (studyId: string) => ['participant-charts-study', studyId] as const,
};
