import { describe, expect, it } from 'vitest';
import { lttbIndices } from './lttb.js';

const series = (n: number, f: (i: number) => number) => {
  const x = Float64Array.from({ length: n }, (_, i) => i * 1000);
  const y = Float64Array.from({ length: n }, (_, i) => f(i));
  return { x, y };
};

describe('LTTB downsampling', () => {
  it('keeps every point when there are no more than asked for', () => {
    const { x, y } = series(5, (i) => i);
    expect([...lttbIndices(x, y, 5)]).toEqual([0, 1, 2, 3, 4]);
    expect([...lttbIndices(x, y, 2000)]).toEqual([0, 1, 2, 3, 4]);
    expect([...lttbIndices([], [], 10)]).toEqual([]);
  });

  it('keeps the first and last points and at most the threshold, in order', () => {
    const { x, y } = series(29_000, (i) => 60 + 20 * Math.sin(i / 500));
    const picked = lttbIndices(x, y, 2000);
    expect(picked.length).toBe(2000);
    expect(picked[0]).toBe(0);
    expect(picked[picked.length - 1]).toBe(28_999);
    for (let i = 1; i < picked.length; i++)
      expect(picked[i] as number).toBeGreaterThan(picked[i - 1] as number);
  });

  it('keeps a one-sample peak and dip that every-nth sampling would drop', () => {
    const { x, y } = series(29_000, (i) => (i === 12_345 ? 180 : i === 20_001 ? 35 : 62));
    const picked = [...lttbIndices(x, y, 2000)];
    expect(picked).toContain(12_345);
    expect(picked).toContain(20_001);
  });

  it('answers the ends alone for thresholds below three', () => {
    const { x, y } = series(10, (i) => i);
    expect([...lttbIndices(x, y, 2)]).toEqual([0, 9]);
    expect([...lttbIndices(x, y, 1)]).toEqual([0]);
  });
});
