import {
  authenticationRequiredTo,
  countDaysInclusive,
  type DataType,
  DEFAULT_DATA_TYPE,
  defaultExtractionName,
  EXTRACTION_MESSAGES,
  extractionDateRangeSchema,
  NOTIFICATION_TITLES,
  EXTRACTION_PANEL_TEXTS as T,
  UNKNOWN_ERROR,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useState } from 'react';
import type { Notify } from '../../components/notification-modal';
import { type EstimateRequest, useExtractionEstimate } from './api/get-extraction-estimate';
import { useStartExtraction } from './api/start-extraction';

export type DateMode = 'single' | 'range';

/** What the researcher picks: dates, participants and data types, with the estimate they give. */
export function useExtractionSelection(studyId: string) {
  const [mode, setMode] = useState<DateMode>('single');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [selected, setSelected] = useState<WearableAuthorizationRow[]>([]);
  const [dataTypes, setDataTypes] = useState<DataType[]>([DEFAULT_DATA_TYPE]);

  const dates =
    mode === 'single' ? startDate || '—' : startDate && endDate ? `${startDate} – ${endDate}` : '—';
  // The server's own rule for a range (end not before start, not too long), shown at the field.
  const dateProblem =
    mode === 'range' && startDate && endDate
      ? (extractionDateRangeSchema.safeParse({ startDate, endDate, mode }).error?.issues[0]
          ?.message ?? null)
      : null;

  // Start opens once someone, something and a day are chosen (a missing end date or a bad range
  // is then said on click); the estimate waits for a complete, valid selection.
  const startable =
    selected.length > 0 &&
    dataTypes.length > 0 &&
    countDaysInclusive(startDate, mode === 'range' ? endDate : null) > 0;
  const complete = startable && (mode === 'single' || endDate !== '') && dateProblem === null;
  const request: EstimateRequest | null = complete
    ? {
        participantIds: selected.map((s) => s.participantId).sort(),
        dataTypes: [...dataTypes].sort(),
        dateRange: { startDate, endDate: mode === 'range' ? endDate : startDate, mode },
      }
    : null;
  const estimate = useExtractionEstimate(studyId, request);

  const validationError = (): string | null => {
    if (selected.length === 0) return EXTRACTION_MESSAGES.selectParticipant;
    if (dataTypes.length === 0) return EXTRACTION_MESSAGES.selectDataType;
    if (mode === 'single' && !startDate) return EXTRACTION_MESSAGES.selectDate;
    if (mode === 'range' && (!startDate || !endDate)) return EXTRACTION_MESSAGES.selectBothDates;
    return dateProblem;
  };

  return {
    mode,
    setMode,
    startDate,
    setStartDate,
    endDate,
    setEndDate,
    selected,
    setSelected,
    dataTypes,
    setDataTypes,
    startable,
    complete,
    /** The server's estimate of the current selection; the last one while the next loads. */
    estimate: complete ? estimate.data : undefined,
    estimating: complete && estimate.isFetching,
    dates,
    dateProblem,
    validationError,
  };
}

export type ExtractionSelection = ReturnType<typeof useExtractionSelection>;

/** The naming step before a start: opens only for a valid selection, then starts the jobs. */
export function useStartExtractionDialog(
  studyId: string,
  selection: ExtractionSelection,
  signedIn: boolean,
  notify: Notify,
) {
  const start = useStartExtraction(studyId);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);

  const openDialog = () => {
    if (!signedIn) {
      notify('error', NOTIFICATION_TITLES.authenticationError, authenticationRequiredTo());
      return;
    }
    const problem = selection.validationError();
    if (problem) {
      notify('error', NOTIFICATION_TITLES.validationError, problem);
      return;
    }
    setName(defaultExtractionName(new Date(), selection.selected.length));
    setNameTouched(false);
    setOpen(true);
  };

  const submit = async () => {
    setNameTouched(true);
    if (!name.trim()) return;
    const { mode, startDate, endDate } = selection;
    try {
      // The new jobs appear in the list below, with live progress: no extra message needed.
      await start.mutateAsync({
        participantIds: selection.selected.map((s) => s.participantId),
        dataTypes: selection.dataTypes,
        extractionName: name.trim(),
        dateRange: { startDate, endDate: mode === 'range' ? endDate : startDate, mode },
      });
      setOpen(false);
    } catch (error) {
      const reason = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR;
      notify('error', T.startFailedTitle, EXTRACTION_MESSAGES.startFailed(reason));
    }
  };

  return {
    open,
    close: () => setOpen(false),
    openDialog,
    submit,
    name,
    setName,
    nameTouched,
    touchName: () => setNameTouched(true),
    pending: start.isPending,
  };
}

export type StartExtractionDialogState = ReturnType<typeof useStartExtractionDialog>;
