import { describe, expect, it } from 'vitest';
import { EXTRACTION_PANEL_TEXTS as T } from './extraction.js';

describe('the estimated time of a run', () => {
  it.each([
    [0.5, 4, '1–4 seconds'],
    [1.2, 5.5, '1–6 seconds'],
    [3, 3, 'about 3 seconds'],
    [0, 0.4, 'about 1 second'],
    [45, 100, '1–2 minutes'],
    [60, 60, 'about 1 minute'],
    [240, 330, '4–6 minutes'],
    [3 * 3600, 5 * 3600, '3–5 hours'],
  ])('%d to %d seconds read %s', (min, max, shown) => {
    expect(T.estimatedTime(min, max)).toBe(shown);
  });
});
