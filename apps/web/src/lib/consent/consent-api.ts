import { consentApi } from '@research/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOperation, downloadOperation } from '../api-client';
import { saveBlob } from '../save-blob';

/** The consent calls: the study screen's (bearer) and the participant's (participant session). */

/** Under the study screen's key (`['study-detail', id]`), so its Refresh reloads these too. */
const studyKey = (studyId: string) => ['study-detail', studyId] as const;
export const consentKeys = {
  overview: (studyId: string) => [...studyKey(studyId), 'consent'] as const,
  signatures: (studyId: string) => [...studyKey(studyId), 'consent', 'signatures'] as const,
};

export function useConsentOverview(studyId: string) {
  return useQuery({
    queryKey: consentKeys.overview(studyId),
    queryFn: () => callOperation(consentApi.getConsentOverview, { params: { id: studyId } }),
  });
}

export function useConsentSignatures(studyId: string) {
  return useQuery({
    queryKey: consentKeys.signatures(studyId),
    queryFn: () => callOperation(consentApi.listConsentSignatures, { params: { id: studyId } }),
  });
}

function useInvalidateConsent(studyId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: consentKeys.overview(studyId) });
}

export function useSaveConsentDraft(studyId: string) {
  const invalidate = useInvalidateConsent(studyId);
  return useMutation({
    mutationFn: (body: { markdown: string; statements: string[] }) =>
      callOperation(consentApi.saveConsentDraft, { params: { id: studyId }, body }),
    onSuccess: invalidate,
  });
}

export function useUploadConsentPdf(studyId: string) {
  const invalidate = useInvalidateConsent(studyId);
  return useMutation({
    mutationFn: ({ file, statements }: { file: File; statements: string[] }) => {
      const form = new FormData();
      form.set('statements', JSON.stringify(statements));
      form.set('pdf', file, file.name);
      return callOperation(consentApi.uploadConsentPdf, { params: { id: studyId }, body: form });
    },
    onSuccess: invalidate,
  });
}

export function usePublishConsent(studyId: string) {
  const invalidate = useInvalidateConsent(studyId);
  return useMutation({
    mutationFn: (reconsentRequired: boolean) =>
      callOperation(consentApi.publishConsent, {
        params: { id: studyId },
        body: { reconsentRequired },
      }),
    onSuccess: invalidate,
  });
}

export function useRecordWithdrawal(studyId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (participantId: string) =>
      callOperation(consentApi.recordWithdrawal, { params: { id: studyId, participantId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: studyKey(studyId) }),
  });
}

export async function downloadVersionPdf(studyId: string, versionId: string, name: string) {
  saveBlob(
    await downloadOperation(consentApi.downloadConsentVersionPdf, {
      params: { id: studyId, versionId },
    }),
    name,
  );
}

export async function downloadSignatureRecord(studyId: string, signatureId: string, name: string) {
  saveBlob(
    await downloadOperation(consentApi.downloadConsentRecord, {
      params: { id: studyId, signatureId },
    }),
    name,
  );
}

// ---- The participant, with the session headers of this tab (the participant pages hold them) ----

export type SessionHeaders = Record<string, string>;
const asParticipant = (headers: SessionHeaders) => ({ token: null, headers });

export function fetchParticipantConsent(headers: SessionHeaders) {
  return callOperation(consentApi.getParticipantConsent, {}, asParticipant(headers));
}

export function signConsent(
  headers: SessionHeaders,
  body: { versionId: string; statements: string[]; fullName: string },
) {
  return callOperation(consentApi.signConsent, { body }, asParticipant(headers));
}

export async function downloadOwnCopy(headers: SessionHeaders) {
  saveBlob(
    await downloadOperation(consentApi.downloadOwnConsentCopy, {}, asParticipant(headers)),
    'signed-consent.pdf',
  );
}

export async function openConsentFormPdf(headers: SessionHeaders) {
  saveBlob(
    await downloadOperation(consentApi.downloadParticipantConsentPdf, {}, asParticipant(headers)),
    'consent-form.pdf',
  );
}

export function withdrawFromStudy(headers: SessionHeaders) {
  return callOperation(
    consentApi.withdrawFromStudy,
    { body: { confirm: true } },
    asParticipant(headers),
  );
}
