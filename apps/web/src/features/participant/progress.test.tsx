import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readProgress, saveProgress } from './progress';

/** The document's load as the browser reports it. */
function loadedBy(type: NavigationTimingType) {
  vi.spyOn(performance, 'getEntriesByType').mockReturnValue([
    { type } as PerformanceNavigationTiming,
  ]);
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('enrolment progress', () => {
  it('resumes after a reload or a history step, not on a fresh visit', () => {
    saveProgress('k', { step: 4 }, Date.now() + 60_000);
    loadedBy('reload');
    expect(readProgress('k')).toEqual({ step: 4 });
    loadedBy('back_forward');
    expect(readProgress('k')).toEqual({ step: 4 });
    loadedBy('navigate');
    expect(readProgress('k')).toBeNull();
  });

  it('is dropped once its end has passed', () => {
    loadedBy('reload');
    saveProgress('k', { step: 4 }, Date.now() + 1000);
    expect(readProgress('k', Date.now() + 1001)).toBeNull();
    expect(sessionStorage.getItem('k')).toBeNull();
  });
});
