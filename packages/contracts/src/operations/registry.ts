import * as accessTokens from './access-tokens.js';
import * as adherence from './adherence.js';
import * as applications from './applications.js';
import * as audit from './audit.js';
import * as auth from './auth.js';
import * as consent from './consent.js';
import * as email from './email.js';
import * as enrolment from './enrolment.js';
import * as exports from './exports.js';
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

const names = new Map<OperationDefinition, string>();
const byName = new Map<string, OperationDefinition>();

/**
 * Every operation, for what must know them all: the test doubles that stand in for the server,
 * the check that every route is registered from one, and the API reference, which names each
 * call after its export (`listParticipants`). Production web code imports single operations
 * instead, so this list stays out of its bundles.
 */
const all = (...modules: Record<string, OperationDefinition>[]) =>
  modules.flatMap((module) =>
    Object.entries(module).map(([name, operation]) => {
      if (byName.has(name)) throw new Error(`Two operations are named ${name}`);
      names.set(operation, name);
      byName.set(name, operation);
      return operation;
    }),
  );

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
  exports,
  accessTokens,
  audit,
  consent,
);

/** The exported name of an operation (its OpenAPI operationId); undefined if not registered. */
export const operationNameOf = (operation: OperationDefinition): string | undefined =>
  names.get(operation);

/** The operation exported under a name (an OpenAPI operationId). */
export const operationNamed = (name: string): OperationDefinition | undefined => byName.get(name);
