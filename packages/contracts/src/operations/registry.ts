import * as accessTokens from './access-tokens.js';
import * as adherence from './adherence.js';
import * as applications from './applications.js';
import * as auth from './auth.js';
import * as email from './email.js';
import * as enrolment from './enrolment.js';
import * as extraction from './extraction.js';
import * as health from './health.js';
import * as healthNotifications from './health-notifications.js';
import type { OperationDefinition } from './operation.js';
import * as participants from './participants.js';
import * as storage from './storage.js';
import * as studies from './studies.js';
import * as verification from './verification.js';
import * as wearables from './wearables.js';
import * as webhooks from './webhooks.js';

/**
 * Every operation, for what must know them all: the test doubles that stand in for the server
 * and the check that every route is registered from one. Production web code imports single
 * operations instead, so this list stays out of its bundles.
 */
const all = (...modules: Record<string, OperationDefinition>[]) =>
  modules.flatMap((module) => Object.values(module));

export const ALL_OPERATIONS: readonly OperationDefinition[] = all(
  studies,
  auth,
  applications,
  health,
  participants,
  email,
  storage,
  wearables,
  extraction,
  enrolment,
  verification,
  webhooks,
  healthNotifications,
  adherence,
  accessTokens,
);
