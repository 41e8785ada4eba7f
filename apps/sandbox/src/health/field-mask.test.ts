import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { applyFieldMask, parseFieldMask } from './field-mask.js';

const page = {
  dataPoints: [
    {
      dataSource: { recordingMethod: 'PASSIVELY_MEASURED', device: { displayName: 'Charge 6' } },
      steps: {
        interval: { startTime: '2026-11-01T00:00:00Z', startUtcOffset: '-14400s' },
        count: '12',
      },
    },
    { steps: { count: '3' } },
  ],
  nextPageToken: 'abc',
};
const select = (fields: string) => applyFieldMask(page, parseFieldMask(fields));

describe('partial responses (fields)', () => {
  it('keeps what a selection names, at every element of an array', () => {
    expect(select('dataPoints(steps/count),nextPageToken')).toEqual({
      dataPoints: [{ steps: { count: '12' } }, { steps: { count: '3' } }],
      nextPageToken: 'abc',
    });
    expect(select('dataPoints/steps/interval/startTime')).toEqual({
      dataPoints: [{ steps: { interval: { startTime: '2026-11-01T00:00:00Z' } } }, {}],
    });
  });

  it('merges selections of one field, the whole value winning over a part', () => {
    expect(select('dataPoints/dataSource/device, dataPoints/dataSource')).toEqual({
      dataPoints: [{ dataSource: page.dataPoints[0]?.dataSource }, {}],
    });
    expect(select('dataPoints(steps/count,steps/interval(startUtcOffset))')).toEqual({
      dataPoints: [
        { steps: { interval: { startUtcOffset: '-14400s' }, count: '12' } },
        { steps: { count: '3' } },
      ],
    });
  });

  it('selects every field of a level with *, and omits what is left empty', () => {
    expect(select('dataPoints/*/count')).toEqual({
      dataPoints: [{ steps: { count: '12' } }, { steps: { count: '3' } }],
    });
    expect(select('nextPageToken/inner')).toEqual({});
  });

  it.each(['', 'a,', 'a(b', 'a(b))', 'a//b', '(a)', 'a-b', 'a(,b)'])(
    'refuses the malformed selection %j with INVALID_ARGUMENT',
    (fields) => {
      let error: unknown;
      try {
        parseFieldMask(fields);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(400);
      expect((error as ApiError).status).toBe('INVALID_ARGUMENT');
      expect((error as Error).message).toContain('Invalid field selection');
    },
  );
});
