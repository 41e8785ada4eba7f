import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

/**
 * New pages open at the top; Back and Forward (POP) are left to the browser, which restores the
 * old position. A few lines instead of react-router's ScrollRestoration (~0.9 KB gzip on the
 * landing route, whose JavaScript budget is 150 KB gzip).
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input.
  useEffect(() => {
    if (navigationType !== 'POP') {
      window.scrollTo(0, 0);
    }
  }, [pathname, navigationType]);
  return null;
}
