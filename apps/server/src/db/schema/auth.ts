import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored lower-cased and trimmed; unique. */
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    photoUrl: text('photo_url'),
    /** argon2id; null for accounts that only sign in with Google. */
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['researcher', 'master'] })
      .notNull()
      .default('researcher'),
    googleSubject: text('google_subject'),
    /**
     * Set once the person proved they own the address: the confirmation link mailed at sign-up,
     * Google with a verified address, a completed reset link or the master set-up link.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_google_subject_key').on(t.googleSubject),
    index('users_role_idx').on(t.role),
  ],
);

/** Opaque bearer sessions: only the SHA-256 of the token is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

/** Single-use links: password reset, set-password, master set-up, e-mail confirmation. Only the hash is kept. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', {
      enum: ['reset_password', 'set_password', 'master_setup', 'confirm_email'],
    }).notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('one_time_tokens_hash_key').on(t.tokenHash),
    index('one_time_tokens_user_idx').on(t.userId, t.purpose),
    index('one_time_tokens_expires_idx').on(t.expiresAt),
  ],
);

/** Failed sign-ins, counted per account and per client address to throttle guessing. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: text('scope', { enum: ['account', 'address', 'study_join'] }).notNull(),
    /** SHA-256 of the e-mail or address, so the table holds no personal data. */
    keyHash: text('key_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('auth_failures_lookup_idx').on(t.scope, t.keyHash, t.createdAt),
    index('auth_failures_created_idx').on(t.createdAt),
  ],
);

/**
 * Sign-in attempts per key in a fixed 15-minute window. One row per key, bumped with
 * `insert … on conflict do update … returning`, so parallel attempts each get their own count
 * before any password is checked. Keys: an (account, client address) pair, a client address,
 * and an account across all addresses (the ceiling against distributed guessing).
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    scope: text('scope', { enum: ['pair', 'address', 'account'] }).notNull(),
    /** SHA-256 of the key, so the table holds no personal data. */
    keyHash: text('key_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.keyHash] }),
    index('sign_in_attempts_window_idx').on(t.windowStartedAt),
  ],
);

/**
 * OAuth `state` values: random, single-use, short-lived, bound server-side to what the flow
 * needs (PKCE verifier, nonce, and for sign-in the opener's binding). Shared by Google sign-in
 * and the wearable connection.
 */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['google_sign_in', 'wearable'] }).notNull(),
    stateHash: text('state_hash').notNull(),
    codeVerifierEncrypted: text('code_verifier_encrypted').notNull(),
    nonce: text('nonce'),
    bindingHash: text('binding_hash'),
    context: jsonb('context').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_states_state_hash_key').on(t.stateHash),
    index('oauth_states_expires_idx').on(t.expiresAt),
  ],
);
