import type { FastifyInstance } from 'fastify';

/** Starts an extraction run over HTTP as `token`'s holder, as the study page does; throws unless 200. */
export async function startExtractionRun(
  app: FastifyInstance,
  token: string,
  payload: {
    participantIds: string[];
    extractionName: string;
    dataTypes: string[];
    dateRange: { startDate: string; endDate: string; mode: 'range' | 'single' };
  },
) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/data-extraction/extract-participant-data',
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`start: ${res.statusCode} ${res.body}`);
  return res.json() as { runId: string; callsPlanned: number };
}
