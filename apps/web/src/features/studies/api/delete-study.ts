import { studiesApi } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { studyKeys } from './study-list';

/** Owner only; the server soft-deletes. */
export async function deleteStudy(id: string): Promise<void> {
  await callOperation(studiesApi.deleteStudy, { params: { id } });
}

export function useDeleteStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
