/** Liveness and readiness probes: liveness never touches dependencies, readiness does. */

import { z } from 'zod';

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
});

export const readinessResponseSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: z.boolean(),
    migrations: z.boolean(),
  }),
});
