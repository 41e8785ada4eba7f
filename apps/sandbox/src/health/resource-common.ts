import { createHash } from 'node:crypto';
import type { Grant } from '../oidc-grants.js';
import { HEALTH_SCOPE_PREFIX } from '../oidc-scopes.js';
import { civilDayNumber } from './civil.js';
import { utcOffsetAt } from './data-generator.js';
import type { Point } from './data-points.js';
import { findType, type TypeSpec } from './data-types.js';
import { ApiError, errorInfo, invalidArgument } from './errors.js';

/** What the Health API routes share: the caller, scope checks, request parameters, page tokens. */

export const FAMILIES = ['all-sources', 'google-wearables', 'google-sources', 'self-sources'];
/** The tracker every simulated account wears. */
export const DATA_SOURCE = { device: { displayName: 'Charge 6' }, platform: 'FITBIT' };
/**
 * A phone that also counts steps and passes on a strap's heart rate through Health Connect, for
 * accounts whose e-mail's local part holds `+phone`: a second source, as Google lists one.
 */
export const PHONE_SOURCE = {
  device: { displayName: 'Pixel 9', manufacturer: 'Google', formFactor: 'PHONE' },
  platform: 'HEALTH_CONNECT',
};

/** Whether the simulated account carries the phone too. */
export function hasPhone(email: string): boolean {
  return /\+phone[^@]*@/.test(email.trim().toLowerCase());
}

/**
 * Whether a family's points include the phone's: `google-wearables` is Fitbit trackers and Pixel
 * Watch only (no phone, no manual log); `google-sources` is every first-party source, Health
 * Connect included; `all-sources` everything; `self-sources` only this client's writes.
 */
export const familyHasPhone = (family: string) =>
  family === 'all-sources' || family === 'google-sources';

export interface Caller {
  grant: Grant;
  email: string;
  healthUserId: string;
  legacyUserId: string;
  /** Data is visible up to here: the sandbox's now, or the account's last sync when earlier. */
  now: number;
  /** The instant of the account's last simulated sync; null while it syncs continuously. */
  syncedAt: number | null;
}

export type Access = 'read' | 'self-only';

export function scopeError(method: string): ApiError {
  return new ApiError(403, 'PERMISSION_DENIED', 'Request had insufficient authentication scopes.', [
    errorInfo(
      'ACCESS_TOKEN_SCOPE_INSUFFICIENT',
      { service: 'health.googleapis.com', method: `google.devicesandservices.health.v4.${method}` },
      'googleapis.com',
    ),
  ]);
}

/** Read scope → full access; only the write-only scope → the client's own points (none here). */
export function access(grant: Grant, area: string, method: string): Access {
  if (grant.scopes.includes(`${HEALTH_SCOPE_PREFIX}${area}.readonly`)) return 'read';
  if (grant.scopes.includes(`${HEALTH_SCOPE_PREFIX}${area}.writeonly`)) return 'self-only';
  throw scopeError(method);
}

export function unknownField(name: string, at?: string): ApiError {
  return invalidArgument(
    `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`,
    {
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        {
          ...(at ? { field: at } : {}),
          description: `Invalid JSON payload received. Unknown name "${name}"${at ? ` at '${at}'` : ''}: Cannot find field.`,
        },
      ],
    },
  );
}

export function queryParam(query: URLSearchParams, camelName: string): string | null {
  const snakeName = camelName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return query.get(camelName) ?? query.get(snakeName);
}

export function pageSizeOf(raw: unknown, def: number, max: number): number {
  if (raw === null || raw === undefined || raw === '') return def;
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(n) || n < 0) throw invalidArgument('page_size must not be negative.');
  return n === 0 ? def : Math.min(n, max);
}

/** Opaque page tokens: the cursor plus a hash of every other parameter of the request. */
export function pageToken(hash: string, cursor: number): string {
  return Buffer.from(JSON.stringify({ h: hash, c: cursor })).toString('base64url');
}

export function readPageToken(token: string | null | undefined, hash: string): number | null {
  if (!token) return null;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      h?: unknown;
      c?: unknown;
    };
    if (parsed.h === hash && typeof parsed.c === 'number') return parsed.c;
  } catch {
    // falls through to the error below
  }
  throw invalidArgument(
    'Invalid page token: the other request parameters must be the same as in the request that returned it.',
  );
}

export function queryHash(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

export function familyOf(type: TypeSpec, raw: string | null | undefined): string {
  if (raw === null || raw === undefined) return 'all-sources';
  const m = /^users\/[^/]+\/dataSourceFamilies\/([a-z-]+)$/.exec(raw);
  if (!m?.[1] || !FAMILIES.includes(m[1]) || type.id === 'sleep') {
    throw invalidArgument('Data family is missing or is not supported.');
  }
  return m[1];
}

export function requireType(id: string): TypeSpec {
  const type = findType(id);
  if (!type) {
    throw invalidArgument(
      `Invalid parent data type collection: ${id}.`,
      errorInfo('INVALID_PARENT_DATA_TYPE_COLLECTION'),
    );
  }
  return type;
}

/** Whether a point already exists at the sandbox's now. */
export function visible(type: TypeSpec, point: Point, now: number): boolean {
  if (type.kind === 'daily') return point.key <= civilDayNumber(now, utcOffsetAt(now));
  return point.at <= now;
}

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidArgument('Invalid JSON payload received. Expected an object.');
  }
  return body as Record<string, unknown>;
}

export function checkFields(obj: Record<string, unknown>, allowed: string[], at?: string): void {
  for (const key of Object.keys(obj)) if (!allowed.includes(key)) throw unknownField(key, at);
}
