import { useInfiniteQuery } from '@tanstack/react-query';
import { studyListOptions } from './study-list';

/** Studies the signed-in researcher owns, 24 at a time. */
export function useOwnedStudies(enabled = true) {
  return useInfiniteQuery({ ...studyListOptions('owned'), enabled });
}
