import type { DataType } from '@research/contracts';

/**
 * Whether a partition's day is settled: over in the participant's time zone, and synced past by
 * the device when the caller knows its last sync. Until then what is stored is `partial`. Every
 * type's day ends at the participant's local midnight, the minute roll-ups' too (their range is
 * cut there, extraction/local-day.ts).
 */

/** Each zone's formatter, with the answers for the instants it was asked about lately. */
const formats = new Map<string, { format: Intl.DateTimeFormat; dates: Map<number, string> }>();
const DATES_KEPT = 64;

/**
 * The civil date of an instant in an IANA time zone, `yyyy-mm-dd`. A unit's days all ask about
 * the same few instants (its fetch time, the device's last sync), so recent answers are kept:
 * formatting costs ~10 µs, and a backfilled range asked it twice a day.
 */
export function civilDateIn(timeZone: string, at: Date): string {
  let entry = formats.get(timeZone);
  if (!entry) {
    // en-CA writes dates as yyyy-mm-dd.
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    entry = { format, dates: new Map() };
    formats.set(timeZone, entry);
  }
  const ms = at.getTime();
  let date = entry.dates.get(ms);
  if (date === undefined) {
    date = entry.format.format(at);
    if (entry.dates.size >= DATES_KEPT) entry.dates.clear();
    entry.dates.set(ms, date);
  }
  return date;
}

/** Throws a clear error for a time zone the runtime does not know. */
export function assertTimeZone(timeZone: string): void {
  try {
    civilDateIn(timeZone, new Date(0));
  } catch {
    throw new RangeError(`Unknown time zone: ${JSON.stringify(timeZone)}`);
  }
}

export function dayState(input: {
  dataType: DataType;
  date: string;
  timeZone: string;
  rows: number;
  now: Date;
  /** The device's last sync, when known. */
  syncedThrough?: Date | undefined;
}): 'complete' | 'partial' | 'empty' {
  // The profile is not a day's data: what was fetched is the whole of it.
  if (input.dataType === 'profile') return input.rows > 0 ? 'complete' : 'empty';
  const past = (at: Date) => civilDateIn(input.timeZone, at) > input.date;
  const over = past(input.now);
  const synced = input.syncedThrough === undefined || past(input.syncedThrough);
  if (!over || !synced) return 'partial';
  return input.rows > 0 ? 'complete' : 'empty';
}
