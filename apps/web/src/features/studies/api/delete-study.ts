import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { studyKeys } from './study-list';

/** DELETE /api/auth/delete-study/{id} (owner only; the server soft-deletes). */
export async function deleteStudy(id: string): Promise<void> {
  await apiRequest<{ success: boolean }>(`/api/auth/delete-study/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });
}

export function useDeleteStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStudy,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: studyKeys.all }),
  });
}
