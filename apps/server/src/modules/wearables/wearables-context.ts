import type { AppConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Cipher } from '../../platform/crypto.js';
import type { GoogleHealthClient } from '../../platform/google-health/index.js';
import type { Messaging } from '../messaging/index.js';
import type { Serialized } from './single-flight.js';

/** What the parts of the wearables service share; built once by createWearablesService. */
export interface WearablesContext {
  db: Db;
  databaseKind: 'pglite' | 'postgres';
  config: AppConfig;
  cipher: Cipher;
  messaging: Messaging;
  client: GoogleHealthClient;
  now: () => Date;
  /** Where Google sends the participant back after consent. */
  redirectUri: string;
  serialized: Serialized;
  /** Told after a connection is stored active (continuous collection's backfill). */
  onConnected: (participantId: string) => Promise<unknown>;
  /** Why the participant may not connect now (consent not signed, withdrawn), or null. */
  connectRefusal: (participant: { id: string; studyId: string }) => Promise<string | null>;
}
