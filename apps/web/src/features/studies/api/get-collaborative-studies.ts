import { useInfiniteQuery } from '@tanstack/react-query';
import { studyListOptions } from './study-list';

/** Studies the signed-in researcher collaborates on, 24 at a time. */
export function useCollaborativeStudies(enabled = true) {
  return useInfiniteQuery({ ...studyListOptions('collaborative'), enabled });
}
