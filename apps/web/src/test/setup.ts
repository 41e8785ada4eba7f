import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { breaches } from './fake-api';

// Vitest globals are off, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  sessionStorage.clear();
  // A fake reply the real server could not send (or a request it would refuse) fails the test.
  const found = breaches.splice(0);
  if (found.length > 0) throw new Error(`Fake API contract breaches:\n${found.join('\n')}`);
});

// jsdom has no layout, and its scrollTo only logs "not implemented"; pages call it on navigation.
window.scrollTo = () => {};
