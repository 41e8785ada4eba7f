/**
 * The adherence rules, in one place for the heat map, the digest and the reminders (see
 * docs/product.md#adherence): a valid day, and the days since a device last synced.
 */

const DAY_MS = 86_400_000;

/** A day counts as valid when its heart-rate data covers at least the study's hours. */
export const isValidDay = (wearMinutes: number | null, validDayMinHours: number): boolean =>
  wearMinutes !== null && wearMinutes >= validDayMinHours * 60;

/** Whole days since the device's last sync (0 within the first 24 h); null when it never synced. */
export function daysWithoutSync(lastDeviceSyncAt: Date | string | null, now: Date): number | null {
  if (lastDeviceSyncAt === null) return null;
  const at =
    typeof lastDeviceSyncAt === 'string'
      ? Date.parse(lastDeviceSyncAt)
      : lastDeviceSyncAt.getTime();
  return Math.max(0, Math.floor((now.getTime() - at) / DAY_MS));
}

/**
 * A connected participant is at risk after `riskNoSyncDays` whole days without a sync; one whose
 * device never synced is at risk once they have been connected that long.
 */
export function isAtRisk(input: {
  lastDeviceSyncAt: Date | string | null;
  connectedAt: Date | string;
  now: Date;
  riskNoSyncDays: number;
}): boolean {
  const since = daysWithoutSync(input.lastDeviceSyncAt ?? input.connectedAt, input.now);
  return since !== null && since >= input.riskNoSyncDays;
}

/**
 * `isAtRisk` as a bound for SQL: a connected participant is at risk exactly when their last sync
 * (else their connection's creation) is at or before this instant (whole days: floor(d) ≥ n ⇔ d ≥ n).
 */
export const atRiskCutoff = (now: Date, riskNoSyncDays: number): Date =>
  new Date(now.getTime() - riskNoSyncDays * DAY_MS);
