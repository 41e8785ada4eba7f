import { applicationsApi, type ResearcherApplicationInput } from '@research/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../../../lib/api-client';
import { applicationStatusKey } from './application-status';
import { previousApplicationKey } from './previous-application';

interface SubmitApplicationRequest {
  application: ResearcherApplicationInput;
  documents: File[];
  token: string | null;
}

/**
 * Files an application: as JSON, or as multipart/form-data with the same text fields plus the
 * files in `documents` when any are attached. Returns the new application's id. Failures are
 * ApiErrors whose `fields` carry the server's per-field messages. Sent once: a 5xx may come after
 * the application was filed, and a retry would then be refused as a duplicate.
 */
async function submitApplication({
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
  const response = await callOperation(
    applicationsApi.submitApplication,
    { body },
    { token, retryAttempts: 1 },
  );
  return response.applicationId;
}

export function useSubmitApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitApplication,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: applicationStatusKey }),
        queryClient.invalidateQueries({ queryKey: previousApplicationKey }),
      ]),
  });
}
