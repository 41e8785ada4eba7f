/** Cache keys of the extraction panel; a start invalidates the job list. */
export const extractionKeys = {
  jobs: (studyId: string) => ['extraction', 'jobs', studyId] as const,
  job: (studyId: string, jobId: string) => ['extraction', 'job', studyId, jobId] as const,
  estimate: (studyId: string, request: unknown) =>
    ['extraction', 'estimate', studyId, request] as const,
};
