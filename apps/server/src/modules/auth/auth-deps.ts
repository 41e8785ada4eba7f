import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Messaging } from '../messaging/index.js';

/** What the auth service's parts share. */

export const MINUTE = 60_000;

export interface RequestContext {
  ip: string;
}

export interface AuthDeps {
  db: Db;
  config: AppConfig;
  messaging: Messaging;
}
