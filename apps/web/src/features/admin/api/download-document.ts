import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { readStoredSession } from '../../../lib/auth/session-storage';

export interface DownloadDocumentInput {
  applicationId: string;
  documentId: string;
  /** The name the saved file gets. */
  fileName: string;
}

/**
 * GET /api/admin/researcher-applications/{id}/documents/{documentId}: the file itself. apiRequest
 * reads non-JSON replies as text, which would corrupt a PDF, so this one call fetches a Blob with
 * the same Bearer token and turns an error envelope into the same ApiError.
 */
export async function fetchDocument({
  applicationId,
  documentId,
}: Pick<DownloadDocumentInput, 'applicationId' | 'documentId'>): Promise<Blob> {
  const token = readStoredSession()?.token;
  let response: Response;
  try {
    response = await fetch(
      `/api/admin/researcher-applications/${encodeURIComponent(applicationId)}/documents/${encodeURIComponent(documentId)}`,
      {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
        mode: 'cors',
        credentials: 'omit',
      },
    );
  } catch {
    throw new ApiError('Network connection failed', 0, 'NETWORK_ERROR');
  }
  if (!response.ok) {
    let message = `HTTP ${response.status}: ${response.statusText}`;
    let code: string | undefined;
    try {
      const body = (await response.json()) as {
        message?: unknown;
        error?: unknown;
        code?: unknown;
      };
      const text = [body.message, body.error].find(
        (v): v is string => typeof v === 'string' && v.trim() !== '',
      );
      if (text) message = text;
      if (typeof body.code === 'string') code = body.code;
    } catch {
      // Not JSON: keep the status line.
    }
    throw new ApiError(message, response.status, code);
  }
  return response.blob();
}

/** Hands the Blob to the browser as a download through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads a verification document; changes nothing on the server, so invalidates nothing. */
export function useDownloadDocument() {
  return useMutation({
    mutationFn: async (input: DownloadDocumentInput) => {
      saveBlob(await fetchDocument(input), input.fileName);
    },
  });
}
