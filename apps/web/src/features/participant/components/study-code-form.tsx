import TextField from '@mui/material/TextField';
import {
  formatStudyCodeInput,
  isValidStudyCode,
  PARTICIPANT_COMMON_TEXTS,
  STUDY_CODE,
  STUDY_CODE_MESSAGES,
  studiesApi,
} from '@research/contracts';
import { type FormEvent, useState } from 'react';
import { isOperationError } from '../../../lib/api-client';
import { lookupStudy, type StudyLookup } from '../api/lookup-study';
import { StepActions } from './participant-page';
import { StepError, SubmitButton } from './step-parts';

/**
 * 'Enter Study Code': 6-8 letters and digits, upper-cased as typed, at most 8; looked up
 * with POST /api/auth/verify-study-code.
 */
export function StudyCodeForm({
  initialCode = '',
  onFound,
}: {
  initialCode?: string;
  onFound: (study: StudyLookup) => void;
}) {
  const [code, setCode] = useState(formatStudyCodeInput(initialCode, STUDY_CODE.maxLength));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!code) return setError(STUDY_CODE_MESSAGES.required);
    if (!isValidStudyCode(code)) return setError(STUDY_CODE_MESSAGES.invalidFormat);
    setError(null);
    setBusy(true);
    try {
      onFound(await lookupStudy(code));
    } catch (cause) {
      setError(
        isOperationError(cause, studiesApi.verifyStudyCode, 'STUDY_NOT_FOUND')
          ? STUDY_CODE_MESSAGES.notFound
          : STUDY_CODE_MESSAGES.invalid,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={submit}>
      <TextField
        label={PARTICIPANT_COMMON_TEXTS.studyCodeLabel}
        value={code}
        onChange={(e) => setCode(formatStudyCodeInput(e.target.value, STUDY_CODE.maxLength))}
        helperText={PARTICIPANT_COMMON_TEXTS.studyCodeHelp}
        slotProps={{
          htmlInput: {
            maxLength: STUDY_CODE.maxLength,
            autoCapitalize: 'characters',
            autoComplete: 'off',
            spellCheck: false,
            style: { letterSpacing: '0.2em', fontWeight: 600 },
          },
        }}
        error={Boolean(error)}
        fullWidth
        required
        autoFocus
      />
      <StepError error={error} spaced />
      <StepActions>
        <span />
        <SubmitButton busy={busy}>{PARTICIPANT_COMMON_TEXTS.verifyStudyCode}</SubmitButton>
      </StepActions>
    </form>
  );
}
