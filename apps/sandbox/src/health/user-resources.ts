import { createHash } from 'node:crypto';
import { HEALTH_SCOPE_PREFIX } from '../oidc-scopes.js';
import { duration, rfc3339 } from './civil.js';
import {
  AGE,
  HEALTH_TIMELINE,
  RUN_STRIDE_MM,
  timeZoneAt,
  utcOffsetAt,
  WALK_STRIDE_MM,
} from './data-generator.js';
import { notFound } from './errors.js';
import {
  access,
  type Caller,
  pageSizeOf,
  queryHash,
  queryParam,
  readPageToken,
  scopeError,
} from './resource-common.js';

/** `users.*`: identity, profile, settings and paired devices. */

export function identity(caller: Caller) {
  const readable = caller.grant.scopes.some(
    (s) =>
      s.startsWith(HEALTH_SCOPE_PREFIX) &&
      s.endsWith('.readonly') &&
      s !== `${HEALTH_SCOPE_PREFIX}location.readonly`,
  );
  if (!readable) throw scopeError('HealthProfileService.GetIdentity');
  return {
    name: 'users/me/identity',
    healthUserId: caller.healthUserId,
    legacyUserId: caller.legacyUserId,
  };
}

export function profile(caller: Caller) {
  if (access(caller.grant, 'profile', 'HealthProfileService.GetProfile') !== 'read') {
    throw scopeError('HealthProfileService.GetProfile');
  }
  const strides = caller.grant.scopes.includes(
    `${HEALTH_SCOPE_PREFIX}activity_and_fitness.readonly`,
  );
  const [year, month, day] = HEALTH_TIMELINE.dataStartDate.split('-').map(Number);
  return {
    name: `users/${caller.healthUserId}/profile`,
    age: AGE,
    membershipStartDate: { year, month, day },
    ...(strides
      ? { autoWalkingStrideLengthMm: WALK_STRIDE_MM, autoRunningStrideLengthMm: RUN_STRIDE_MM }
      : {}),
  };
}

export function settings(caller: Caller) {
  if (access(caller.grant, 'settings', 'HealthProfileService.GetSettings') !== 'read') {
    throw scopeError('HealthProfileService.GetSettings');
  }
  return {
    name: `users/${caller.healthUserId}/settings`,
    timeZone: timeZoneAt(caller.now),
    utcOffset: duration(utcOffsetAt(caller.now)),
    languageLocale: 'en_US',
    foodLanguageCode: 'en-US',
    distanceUnit: 'DISTANCE_UNIT_MILES',
    heightUnit: 'HEIGHT_UNIT_INCHES',
    weightUnit: 'WEIGHT_UNIT_POUNDS',
    temperatureUnit: 'TEMPERATURE_UNIT_FAHRENHEIT',
    waterUnit: 'WATER_UNIT_FL_OZ',
    swimUnit: 'SWIM_UNIT_YARDS',
    glucoseUnit: 'GLUCOSE_UNIT_MG_DL',
    autoStrideEnabled: true,
    strideLengthWalkingType: 'STRIDE_LENGTH_TYPE_AUTO',
    strideLengthRunningType: 'STRIDE_LENGTH_TYPE_AUTO',
  };
}

export function device(caller: Caller) {
  const id = caller.healthUserId.slice(-9);
  const mac = createHash('sha256').update(`mac:${caller.email}`).digest();
  return {
    name: `users/${caller.healthUserId}/pairedDevices/${id}`,
    deviceType: 'TRACKER',
    deviceVersion: 'Charge 6',
    batteryStatus: 'High',
    batteryLevel: 84,
    // A device told to sync reports that sync; otherwise it synced within the last 15 minutes.
    lastSyncTime: rfc3339(
      caller.syncedAt !== null ? caller.now : Math.floor(caller.now / 900_000) * 900_000,
    ),
    macAddress: [...mac.subarray(0, 6)]
      .map((b) => b.toString(16).padStart(2, '0').toUpperCase())
      .join(':'),
    features: ['STEPS', 'HEART_RATE', 'SLEEP', 'SPO2'],
  };
}

export function pairedDevices(caller: Caller, query: URLSearchParams, id?: string) {
  if (access(caller.grant, 'settings', 'PairedDeviceService.ListPairedDevices') !== 'read') {
    throw scopeError('PairedDeviceService.ListPairedDevices');
  }
  const only = device(caller);
  if (id !== undefined) {
    if (!only.name.endsWith(`/${id}`)) throw notFound();
    return only;
  }
  pageSizeOf(queryParam(query, 'pageSize'), 5, 100);
  const hash = queryHash(['pairedDevices', caller.healthUserId]);
  readPageToken(queryParam(query, 'pageToken'), hash);
  return { pairedDevices: [only] };
}
