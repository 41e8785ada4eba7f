import { describe, expect, it } from 'vitest';
import { civilDaysOf, civilDaysOfAll, kebabDataType, MAX_DAYS_PER_INTERVAL } from './civil-days.js';

describe('civil days of a notification', () => {
  it('takes the civil date-times first, and an end at midnight closes the day before', () => {
    expect(
      civilDaysOf({
        civilDateTimeInterval: {
          startDateTime: { date: { year: 2026, month: 12, day: 31 }, time: { hours: 22 } },
          endDateTime: { date: { year: 2027, month: 1, day: 2 }, time: {} },
        },
      }),
    ).toEqual(['2026-12-31', '2027-01-01']);
  });

  it('reads the civil ISO text when it is the only form', () => {
    expect(
      civilDaysOf({
        civilIso8601TimeInterval: {
          startTime: '2026-02-28T23:59:00',
          endTime: '2026-03-01T00:10:00',
        },
      }),
    ).toEqual(['2026-02-28', '2026-03-01']);
  });

  it('widens instants alone by the largest UTC offsets, so no civil day is missed', () => {
    expect(
      civilDaysOf({
        physicalTimeInterval: {
          startTime: '2026-10-05T12:00:00Z',
          endTime: '2026-10-05T12:05:00Z',
        },
      }),
    ).toEqual(['2026-10-04', '2026-10-05', '2026-10-06']);
  });

  it('hands on the whole range for no interval, an unreadable one or a very long one', () => {
    expect(civilDaysOfAll([])).toBeNull();
    expect(
      civilDaysOf({ civilIso8601TimeInterval: { startTime: '2026-02-30T00:00:00', endTime: 'x' } }),
    ).toBeNull();
    expect(
      civilDaysOf({
        civilIso8601TimeInterval: {
          startTime: '2025-01-01T00:00:00',
          endTime: '2026-01-01T00:00:00',
        },
      }),
    ).toBeNull();
    expect(MAX_DAYS_PER_INTERVAL).toBeGreaterThan(31);
  });

  it('merges the days of several intervals, sorted and once each', () => {
    const day = (d: number) => ({
      civilIso8601TimeInterval: {
        startTime: `2026-10-0${d}T08:00:00`,
        endTime: `2026-10-0${d}T09:00:00`,
      },
    });
    expect(civilDaysOfAll([day(3), day(1), day(3)])).toEqual(['2026-10-01', '2026-10-03']);
  });

  it('writes data types as the API’s paths do', () => {
    expect(kebabDataType('heartRate')).toBe('heart-rate');
    expect(kebabDataType('daily_resting_heart_rate')).toBe('daily-resting-heart-rate');
    expect(kebabDataType('steps')).toBe('steps');
  });
});
