import { enrolmentApi, type UpdateInfoFields } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { sessionHeaders } from '../session';

/** The profile form (multipart: the fields, then document_{n} files) with this tab's session. */
export function updateInfo({ documents, ...fields }: UpdateInfoFields & { documents: File[] }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) form.set(name, value);
  }
  documents.forEach((file, index) => {
    form.set(`document_${index}`, file, file.name);
  });
  return callOperation(
    enrolmentApi.updateInfo,
    { body: form },
    { token: null, headers: sessionHeaders(fields.participantId), retryAttempts: 1 },
  );
}
