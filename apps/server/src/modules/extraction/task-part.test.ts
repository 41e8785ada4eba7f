import type { DataType } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.js';
import { TaskPart } from './task-part.js';
import { type CallPages, tidyRows } from './tidy.js';

const window = { start: '2026-11-01', end: '2026-11-01' };
const sample = (time: string, bpm: number) => ({
  heartRate: {
    sampleTime: { physicalTime: time, utcOffset: '-14400s' },
    beatsPerMinute: String(bpm),
  },
});
const at = (second: number) =>
  `2026-11-01T04:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second % 60).padStart(2, '0')}Z`;

/**
 * The part made a page at a time must be what tidying all the pages at the end makes, whether the
 * pages come parsed or as bytes read by the part's decoder (raw heart rate).
 */
async function expectSameAsTidy(dataType: DataType, calls: CallPages[]) {
  const rows = tidyRows(dataType, 'p-1', window, calls);
  const rereads: boolean[] = [];
  for (const asBytes of [false, true]) {
    const part = new TaskPart(dataType, 'p-1', window);
    for (const call of calls) {
      const decode = asBytes ? part.decoder(call.key) : null;
      for (const page of call.pages) {
        part.add(call.key, decode?.(Buffer.from(JSON.stringify(page))) ?? page);
      }
    }
    let reread = false;
    const made = await part.finish(async () => {
      reread = true;
      return calls;
    });
    expect(made.csv.toString()).toBe(toCsv(rows));
    expect(made.rows).toBe(rows.length);
    rereads.push(reread);
  }
  expect(rereads[1]).toBe(rereads[0]);
  return { reread: rereads[0], rows: rows.length };
}

describe('a task’s part made as pages arrive', () => {
  it('writes newest-first pages as they come, oldest row first', async () => {
    const pages = [
      { dataPoints: [sample(at(59), 1), sample(at(40), 2), sample(at(39), 3)], nextPageToken: 't' },
      { dataPoints: [sample(at(12), 4), sample(at(3), 5)], nextPageToken: 'u' },
      {},
    ];
    expect(
      await expectSameAsTidy('heartrate_intraday_1sec', [{ key: 'heart-rate', pages }]),
    ).toEqual({
      reread: false,
      rows: 5,
    });
  });

  it('streams pages read from bytes and pages read as JSON alike, in one order', async () => {
    // The second page has a member the byte reader does not read: it is parsed, and still streams.
    const pages = [
      { dataPoints: [sample(at(59), 1), sample(at(40), 2)], nextPageToken: 't' },
      {
        dataPoints: [{ dataSource: { platform: 'FITBIT' }, ...sample(at(30), 3) }],
        nextPageToken: 'u',
      },
      { dataPoints: [sample(at(12), 4)] },
    ];
    expect(
      await expectSameAsTidy('heartrate_intraday_1sec', [{ key: 'heart-rate', pages }]),
    ).toEqual({ reread: false, rows: 4 });
  });

  it('tidies the stored pages as a whole when two points share an instant or pages are out of order', async () => {
    const tie = [
      { dataPoints: [sample(at(59), 1), sample(at(40), 2)], nextPageToken: 't' },
      { dataPoints: [sample(at(40), 3), sample(at(3), 4)] },
    ];
    expect(
      (await expectSameAsTidy('heartrate_intraday_1sec', [{ key: 'heart-rate', pages: tie }]))
        .reread,
    ).toBe(true);
    const shuffled = [
      { dataPoints: [sample(at(3), 1), sample(at(40), 2)], nextPageToken: 't' },
      { dataPoints: [sample(at(59), 3)] },
    ];
    expect(
      (await expectSameAsTidy('heartrate_intraday_1sec', [{ key: 'heart-rate', pages: shuffled }]))
        .reread,
    ).toBe(true);
  });

  it('keeps sleep rows and other types’ pages to tidy them at the end', async () => {
    const sleep = {
      dataPoints: [
        {
          name: 'users/1/dataTypes/sleep/dataPoints/8020395',
          sleep: {
            interval: {
              startTime: '2026-11-01T02:40:00Z',
              startUtcOffset: '-14400s',
              endTime: '2026-11-01T10:10:00Z',
              endUtcOffset: '-18000s',
            },
            summary: { minutesInSleepPeriod: '450', minutesAsleep: '420' },
            metadata: { mainSleep: true, processed: true, stagesStatus: 'SUCCEEDED' },
          },
        },
      ],
    };
    expect((await expectSameAsTidy('sleep_log', [{ key: 'sleep', pages: [sleep] }])).rows).toBe(1);
    const daily = {
      rollupDataPoints: [
        {
          civilStartTime: { date: { year: 2026, month: 11, day: 1 }, time: {} },
          steps: { countSum: '9525' },
        },
      ],
    };
    expect(
      (await expectSameAsTidy('activity_steps_timeseries', [{ key: 'steps', pages: [daily] }]))
        .rows,
    ).toBe(1);
  });
});
