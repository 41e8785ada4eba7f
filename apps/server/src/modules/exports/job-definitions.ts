import { defineJob } from '../../platform/jobs.js';

/** The job that builds one export (`export-build`); a retry after a crash starts it over. */
export function createExportJob(deps: {
  retry: { limit: number; delaySeconds: number };
  build: (exportId: string) => Promise<void>;
}) {
  return defineJob<{ exportId: string }>({
    name: 'export-build',
    retryLimit: Math.min(deps.retry.limit, 1),
    retryDelaySeconds: deps.retry.delaySeconds,
    expireInSeconds: 2 * 60 * 60,
    concurrency: 1,
    handler: async (job) => {
      await deps.build(job.data.exportId);
    },
  });
}
