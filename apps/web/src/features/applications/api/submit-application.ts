import type { ResearcherApplicationInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { applicationStatusKey } from './application-status';

export interface SubmitApplicationRequest {
  application: ResearcherApplicationInput;
  documents: File[];
  token: string | null;
}

/**
 * POST /api/admin/researcher-applications: JSON, or multipart/form-data with the same text
 * fields plus the files in `documents` when any are attached. Returns the new application's id.
 * Failures are ApiErrors whose `fields` carry the server's per-field messages. Sent once: a 5xx
 * may come after the application was filed, and a retry would then be refused as a duplicate.
 */
export async function submitApplication({
  application,
  documents,
  token,
}: SubmitApplicationRequest): Promise<string> {
  let body: ResearcherApplicationInput | FormData = application;
  if (documents.length > 0) {
    const form = new FormData();
    for (const [name, value] of Object.entries(application)) {
      if (typeof value === 'string') form.append(name, value);
    }
    for (const file of documents) form.append('documents', file, file.name);
    body = form;
  }
  const response = await apiRequest<{ applicationId: string }>(
    '/api/admin/researcher-applications',
    {
      method: 'POST',
      body,
      token,
      retryAttempts: 1,
    },
  );
  return response.applicationId;
}

export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationStatusKey }),
  });
}
