import {
  authenticationRequiredTo,
  type DataType,
  DEFAULT_DATA_TYPE,
  defaultExtractionName,
  EXTRACTION_MESSAGES,
  estimateExtraction,
  extractionDateRangeSchema,
  NOTIFICATION_TITLES,
  EXTRACTION_PANEL_TEXTS as T,
  UNKNOWN_ERROR,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useState } from 'react';
import type { Notify } from '../../components/notification-modal';
import { useStartExtraction } from './api/start-extraction';

export type DateMode = 'single' | 'range';

/** What the researcher picks: dates, participants and data types, with the estimate they give. */
export function useExtractionSelection() {
  const [mode, setMode] = useState<DateMode>('single');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [selected, setSelected] = useState<WearableAuthorizationRow[]>([]);
  const [dataTypes, setDataTypes] = useState<DataType[]>([DEFAULT_DATA_TYPE]);

  const estimate = estimateExtraction({
    participants: selected.length,
    dataTypes: dataTypes.length,
    startDate: startDate,
    endDate: mode === 'range' ? endDate : null,
  });
  const dates =
    mode === 'single' ? startDate || '—' : startDate && endDate ? `${startDate} – ${endDate}` : '—';
  // The server's own rule for a range (end not before start, not too long), shown at the field.
  const dateProblem =
    mode === 'range' && startDate && endDate
      ? (extractionDateRangeSchema.safeParse({ startDate, endDate, mode }).error?.issues[0]
          ?.message ?? null)
      : null;

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
    estimate,
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
