/** The master's view of Google Health's change notifications (the dashboard card). */

import { notificationStatusResponseSchema } from '../schemas/notification-status.js';
import { defineOperation } from './operation.js';
import { MASTER_ERRORS } from './roles.js';

const tags = ['health-notifications'] as const;

export const getNotificationStatus = defineOperation({
  method: 'GET',
  path: '/api/admin/health-notifications',
  summary:
    'The webhook subscriber as Google reports it (kept for a short while), the last notification received, the backlog, and the refusals of the last 7 days',
  tags,
  auth: 'bearer',
  response: notificationStatusResponseSchema,
  errors: MASTER_ERRORS,
});
