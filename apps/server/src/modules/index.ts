import type { FastifyPluginAsync } from 'fastify';
import * as accessTokens from './access-tokens/index.js';
import * as adherence from './adherence/index.js';
import * as applications from './applications/index.js';
import * as auditTrail from './audit-trail/index.js';
import * as auth from './auth/index.js';
import * as consent from './consent/index.js';
import * as email from './email/index.js';
import * as exportsModule from './exports/index.js';
import * as extraction from './extraction/index.js';
import * as health from './health/index.js';
import * as healthNotifications from './health-notifications/index.js';
import * as participantAccess from './participant-access/index.js';
import * as participants from './participants/index.js';
import * as reminders from './reminders/index.js';
import * as storage from './storage/index.js';
import * as studies from './studies/index.js';
import * as wearables from './wearables/index.js';

/**
 * The modules that answer HTTP, each registering its own routes from its entry (index.ts); the
 * app registers them in this order. A new module with routes is added here and nowhere else.
 */
export const MODULE_ROUTES: readonly { name: string; routes: FastifyPluginAsync }[] = [
  { name: 'health', routes: health.routes },
  { name: 'auth', routes: auth.routes },
  { name: 'applications', routes: applications.routes },
  { name: 'studies', routes: studies.routes },
  { name: 'participants', routes: participants.routes },
  { name: 'email', routes: email.routes },
  { name: 'wearables', routes: wearables.routes },
  { name: 'adherence', routes: adherence.routes },
  { name: 'extraction', routes: extraction.routes },
  { name: 'exports', routes: exportsModule.routes },
  { name: 'participant-access', routes: participantAccess.routes },
  { name: 'storage', routes: storage.routes },
  { name: 'health-notifications', routes: healthNotifications.routes },
  { name: 'reminders', routes: reminders.routes },
  { name: 'access-tokens', routes: accessTokens.routes },
  { name: 'audit-trail', routes: auditTrail.routes },
  { name: 'consent', routes: consent.routes },
];
