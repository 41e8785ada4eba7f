import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { participants } from './participants.js';
import { studies } from './studies.js';

export const WEARABLE_PROVIDERS = ['google-health'] as const;
export const WEARABLE_CONNECTION_STATUSES = ['active', 'needs_reauthorization', 'revoked'] as const;
export type WearableConnectionStatus = (typeof WEARABLE_CONNECTION_STATUSES)[number];

/**
 * `token_binding`: 0 until both stored tokens are known to be bound to their participant, then 1.
 * Only rows at 0 are read (and decrypted) by the binding done at start, so later starts read none.
 */
export const TOKEN_BINDING = { unchecked: 0, participant: 1 } as const;

/**
 * A participant's grant at the wearable provider. Tokens are stored only as
 * ciphertexts of the platform cipher, bound to their column; they never leave the server.
 */
export const wearableConnections = pgTable(
  'wearable_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: WEARABLE_PROVIDERS }).notNull().default('google-health'),
    /** `users.getIdentity().healthUserId`; the product's `fitbitUserId` carries it. */
    healthUserId: text('health_user_id').notNull(),
    /** The old Fitbit id, kept only to join pre-migration records. */
    legacyUserId: text('legacy_user_id'),
    grantedScopes: text('granted_scopes').array().notNull().default(sql`'{}'::text[]`),
    accessTokenEncrypted: text('access_token_encrypted'),
    refreshTokenEncrypted: text('refresh_token_encrypted'),
    tokenBinding: smallint('token_binding').notNull().default(TOKEN_BINDING.unchecked),
    accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
    refreshExpiresAt: timestamp('refresh_expires_at', { withTimezone: true }),
    status: text('status', { enum: WEARABLE_CONNECTION_STATUSES }).notNull().default('active'),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastReauthMailAt: timestamp('last_reauth_mail_at', { withTimezone: true }),
    /** The device's last sync as Google's pairedDevices last reported it; only moves forward. */
    lastDeviceSyncAt: timestamp('last_device_sync_at', { withTimezone: true }),
    /** The battery (0–100) of the device that made that sync, as pairedDevices reported it. */
    batteryLevel: smallint('battery_level'),
  },
  (t) => [
    uniqueIndex('wearable_connections_participant_provider_key').on(t.participantId, t.provider),
    index('wearable_connections_study_idx').on(t.studyId),
    // A change notification names only the Google account: every connection of it is found.
    index('wearable_connections_health_user_idx').on(t.healthUserId),
    // The few rows the start-up binding still has to check.
    index('wearable_connections_unbound_idx')
      .on(t.id)
      .where(sql`${t.tokenBinding} = ${sql.raw(String(TOKEN_BINDING.unchecked))}`),
  ],
);

export const OAUTH_REDIRECT_KINDS = ['popup', 'redirect'] as const;

/**
 * One authorization attempt: the opaque `state` (only its SHA-256 stored) bound to study,
 * participant and the PKCE verifier, single-use and short-lived. The verifier never travels in
 * the state. `client_binding_hash` ties the PKCE path to the browser that started it.
 * `expected_health_user_id` is set for a reauthorization started without a participant session:
 * only the Google account already connected may complete it.
 */
export const wearableOauthStates = pgTable(
  'wearable_oauth_states',
  {
    stateHash: text('state_hash').primaryKey(),
    studyId: uuid('study_id')
      .notNull()
      .references(() => studies.id, { onDelete: 'cascade' }),
    participantId: text('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    verifierEncrypted: text('verifier_encrypted').notNull(),
    redirectKind: text('redirect_kind', { enum: OAUTH_REDIRECT_KINDS }).notNull(),
    clientBindingHash: text('client_binding_hash'),
    expectedHealthUserId: text('expected_health_user_id'),
    /**
     * Who asked for the consent URL: only the participant's own attempt (their verified session,
     * or the reconnection of their own Google account) hands the returning browser a session.
     */
    requestedBy: text('requested_by', { enum: ['participant', 'researcher'] })
      .notNull()
      .default('participant'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('wearable_oauth_states_expires_idx').on(t.expiresAt)],
);
