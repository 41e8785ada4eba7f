import { participantsApi, type RosterIntent, type RosterResult } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';
import { studyDetailKeys } from './keys';
import { useStudyMutation } from './study-mutation';

export interface UploadRosterRequest {
  studyId: string;
  studyCode: string;
  file: File;
  /** Parse and check only: the rows come back to fill the invite dialog, nothing is stored. */
  dryRun: boolean;
  /** 'invite': addresses already pending stay in the rows (an invitation re-invites them). */
  intent?: RosterIntent;
}

/**
 * The roster form (csvFile, studyCode, dryRun, intent). The server parses the CSV with a real
 * CSV parser and answers every row's problem at once. Sent once: a stored upload must not be
 * repeated by a retry.
 */
export function uploadRoster({
  studyId,
  studyCode,
  file,
  dryRun,
  intent,
}: UploadRosterRequest): Promise<RosterResult> {
  const form = new FormData();
  form.append('studyCode', studyCode);
  form.append('dryRun', String(dryRun));
  if (intent) form.append('intent', intent);
  form.append('csvFile', file, file.name);
  return callOperation(
    participantsApi.uploadRoster,
    { params: { id: studyId }, body: form },
    { retryAttempts: 1 },
  );
}

export function useUploadRoster() {
  return useStudyMutation(uploadRoster, ({ studyId, dryRun }) =>
    // A dry run stores nothing.
    dryRun ? [] : [studyDetailKeys.pending(studyId), studyDetailKeys.stats(studyId)],
  );
}
