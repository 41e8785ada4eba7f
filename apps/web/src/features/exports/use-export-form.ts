import {
  authenticationRequiredTo,
  type DataType,
  EXPORT_FORMATS,
  EXPORT_SERVER_MESSAGES,
  EXTRACTION_MAX_PARTICIPANTS,
  type ExportFormat,
  type ExportSummary,
  extractionDateRangeSchema,
  type FieldError,
  type StartExportBody,
  EXPORT_PANEL_TEXTS as T,
  UNKNOWN_ERROR,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { useStartExport } from './api/start-export';

export type ExportField = 'participants' | 'dataTypes' | 'dates' | 'formats';
/** In the order the form shows them: the first one wrong gets the focus. */
const FIELDS: readonly ExportField[] = ['participants', 'dataTypes', 'dates', 'formats'];

export interface ServerProblem {
  message: string;
  fields: FieldError[];
}

/** The export form: the selection, its checks (the contract's texts), and the start. */
export function useExportForm(
  studyId: string,
  signedIn: boolean,
  onStarted: (started: ExportSummary) => void,
) {
  const start = useStartExport(studyId);
  const [selected, setSelected] = useState<WearableAuthorizationRow[]>([]);
  const [dataTypes, setDataTypes] = useState<DataType[]>([]);
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [formats, setFormats] = useState<ExportFormat[]>([...EXPORT_FORMATS]);
  const [minuteGrid, setMinuteGrid] = useState(true);
  const [includeRaw, setIncludeRaw] = useState(false);
  const [name, setName] = useState('');
  // Problems show once a start was tried; a bad range shows as soon as both days are set.
  const [tried, setTried] = useState(false);
  const [serverProblem, setServerProblem] = useState<ServerProblem | null>(null);
  const [startedName, setStartedName] = useState<string | null>(null);
  const refs = {
    participants: useRef<HTMLInputElement>(null),
    dataTypes: useRef<HTMLInputElement>(null),
    dates: useRef<HTMLInputElement>(null),
    formats: useRef<HTMLInputElement>(null),
  } satisfies Record<ExportField, unknown>;

  const rangeProblem =
    startDate && endDate
      ? (extractionDateRangeSchema.safeParse({ startDate, endDate }).error?.issues[0]?.message ??
        null)
      : null;

  const problems: Partial<Record<ExportField, string>> = {};
  if (selected.length === 0) problems.participants = EXPORT_SERVER_MESSAGES.selectParticipant;
  else if (selected.length > EXTRACTION_MAX_PARTICIPANTS) {
    problems.participants = T.tooManyParticipants(EXTRACTION_MAX_PARTICIPANTS);
  }
  if (dataTypes.length === 0) problems.dataTypes = EXPORT_SERVER_MESSAGES.selectDataType;
  if (!startDate || !endDate) problems.dates = T.selectDates;
  else if (rangeProblem) problems.dates = rangeProblem;
  if (formats.length === 0) problems.formats = EXPORT_SERVER_MESSAGES.selectFormat;

  /** What the form shows at each field now. */
  const shown: Partial<Record<ExportField, string>> = tried
    ? problems
    : rangeProblem
      ? { dates: rangeProblem }
      : {};

  const body: StartExportBody = {
    ...(name.trim() ? { name: name.trim() } : {}),
    participantIds: selected.map((s) => s.participantId),
    dataTypes,
    dateRange: { startDate, endDate },
    // In the catalogue's order, whatever order they were ticked in.
    formats: EXPORT_FORMATS.filter((f) => formats.includes(f)),
    minuteGrid,
    includeRaw,
  };

  const toggleFormat = (format: ExportFormat, on: boolean) =>
    setFormats((current) => (on ? [...current, format] : current.filter((f) => f !== format)));

  const submit = async () => {
    setTried(true);
    setServerProblem(null);
    setStartedName(null);
    const first = FIELDS.find((field) => problems[field] !== undefined);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    if (!signedIn) {
      setServerProblem({ message: authenticationRequiredTo(), fields: [] });
      return;
    }
    try {
      const started = await start.mutateAsync(body);
      setTried(false);
      setName('');
      setStartedName(started.name);
      onStarted(started);
    } catch (error) {
      setServerProblem(
        error instanceof ApiError
          ? { message: error.message || UNKNOWN_ERROR, fields: error.fields }
          : { message: error instanceof Error ? error.message : UNKNOWN_ERROR, fields: [] },
      );
    }
  };

  return {
    selected,
    setSelected,
    dataTypes,
    setDataTypes,
    startDate,
    setStartDate,
    endDate,
    setEndDate,
    formats,
    toggleFormat,
    minuteGrid,
    setMinuteGrid,
    includeRaw,
    setIncludeRaw,
    name,
    setName,
    problems: shown,
    /** Whether every field is filled in well enough for the scripts to be run as they are. */
    complete: FIELDS.every((field) => problems[field] === undefined),
    body,
    refs,
    submit,
    pending: start.isPending,
    serverProblem,
    /** The name of the export this form just started, for the status line. */
    startedName,
  };
}

export type ExportForm = ReturnType<typeof useExportForm>;
