/** Liveness and readiness probes for the process supervisor and the load balancer. */

import { healthResponseSchema, readinessResponseSchema } from '../schemas/health.js';
import { defineOperation } from './operation.js';

const tags = ['health'] as const;

export const liveness = defineOperation({
  method: 'GET',
  path: '/healthz',
  summary: 'The process is up',
  tags,
  auth: 'public',
  response: healthResponseSchema,
  errors: {},
});

export const readiness = defineOperation({
  method: 'GET',
  path: '/readyz',
  summary: 'The database is reachable and every migration is applied',
  tags,
  auth: 'public',
  response: readinessResponseSchema,
  // Not ready answers 503 with the same checks, so the caller sees which one failed.
  otherResponses: { 503: readinessResponseSchema },
  errors: {},
});
