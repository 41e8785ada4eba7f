import { type OperationResponse, studiesApi } from '@research/contracts';
import { callOperation } from '../../../lib/api-client';

/** The study lookup result (the page shows 'Research Team' without a researcher name). */
export type StudyLookup = OperationResponse<typeof studiesApi.verifyStudyCode>['study'];

/** Looks a study up by its code, without a session. */
export async function lookupStudy(studyCode: string): Promise<StudyLookup> {
  const result = await callOperation(
    studiesApi.verifyStudyCode,
    { body: { studyCode } },
    { token: null },
  );
  return result.study;
}
