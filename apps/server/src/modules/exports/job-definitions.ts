import { defineJob } from '../../platform/jobs.js';

/**
 * The job that builds one export (`export-build`); a retry after a crash starts it over. A build
 * of a large study may run for an hour, so the expiry is long; a worker that dies is noticed by
 * its missing heartbeat within about a minute and a half instead.
 */
export function createExportJob(deps: {
  retry: { limit: number; delaySeconds: number };
  build: (exportId: string) => Promise<void>;
}) {
  return defineJob<{ exportId: string }>({
    name: 'export-build',
    retryLimit: Math.min(deps.retry.limit, 1),
    retryDelaySeconds: deps.retry.delaySeconds,
    expireInSeconds: 2 * 60 * 60,
    heartbeatSeconds: 60,
    concurrency: 1,
    handler: async (job) => {
      await deps.build(job.data.exportId);
    },
  });
}
