/**
 * Business constants and limits (docs/product.md#limits). Server, web and sandbox
 * read them from here so a limit changes in one place only.
 */

/** Minimum length of account passwords and study passwords. */
export const MIN_PASSWORD_LENGTH = 6;

/** Maximum length of participant first and last names. */
export const NAME_MAX_LENGTH = 100;

/** Participants must be at least this old. */
export const MIN_PARTICIPANT_AGE = 18;

/**
 * Study code lengths. The validator accepts 6 to 8 characters, while the collaborator join dialog
 * limits entry to 6 and codes we generate are 6 long, so they fit that dialog.
 */
export const STUDY_CODE = {
  minLength: 6,
  maxLength: 8,
  joinEntryLength: 6,
  generatedLength: 6,
} as const;

/**
 * Alphabet for generated study codes: upper-case letters and digits without the look-alikes
 * 0/O and 1/I/L, because people read codes out of e-mails and type them by hand.
 */
export const STUDY_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Participant ids are 'P' followed by 16 hex characters: 17 in total. */
export const PARTICIPANT_ID_LENGTH = 17;
export const PARTICIPANT_ID_PREFIX = 'P';

/** Verification codes sent by e-mail or SMS. */
export const VERIFICATION_CODE_LENGTH = 6;
export const VERIFICATION_RESEND_SECONDS = 30;
export const MAX_EMAIL_CODE_ATTEMPTS = 3;
/** Lifetime of a verification code. */
export const VERIFICATION_CODE_TTL_MS = 10 * 60 * 1000;
/** Codes sent to one address or number, across studies, per hour (abuse ceiling). */
export const MAX_CODES_PER_DESTINATION_PER_HOUR = 6;

/**
 * Messages a participant (no account, so no other proof) can have mailed to a study's owner in an
 * hour: per sender address, and per study whoever sends them (the ceiling that holds when the
 * sender gives a new address and network each time).
 */
export const NOTIFY_RESEARCHER_LIMITS = { perSenderPerHour: 3, perStudyPerHour: 10 } as const;

/**
 * Invitations to one recipient of a study within this many hours: an identical one (same subject
 * and text) is not sent again, and past `perRecipient` no further one is sent.
 */
export const INVITATION_REPEAT_LIMITS = { windowHours: 24, perRecipient: 3 } as const;

/** Lifetime of a participant session: long enough for the wearable step and the profile form. */
export const PARTICIPANT_SESSION_TTL_MS = 60 * 60 * 1000;
/** The header that carries a participant session (participants have no bearer token). */
export const PARTICIPANT_SESSION_HEADER = 'x-participant-session';

/** Phone numbers carry exactly this many digits. */
export const PHONE_DIGITS = 10;

/** CSV roster upload limits: 5 MB, preview of 5 rows. */
export const CSV_MAX_BYTES = 5_242_880;
export const CSV_PREVIEW_ROWS = 5;

/** Delays before the automatic redirects after a success panel. */
export const REDIRECT_DELAYS_MS = {
  applicationSubmit: 3_000,
  profileSubmit: 3_000,
  wearableSuccess: 3_000,
} as const;

/** Wearable authorization popup. */
export const POPUP = {
  width: 600,
  height: 700,
  closedCheckMs: 3_000,
  closeAfterSuccessMs: 500,
} as const;

/** Settings every new study is created with. */
export const DEFAULT_STUDY_SETTINGS = {
  allowSelfEnrollment: false,
  requireVerification: true,
  dataRetentionDays: 365,
  /** Data a participant deletes in their Google account: kept, marked, unless the study says remove. */
  removeDataDeletedAtSource: false,
  /** A day counts as valid (worn) with at least this many hours of heart-rate data. */
  validDayMinHours: 10,
  /** A connected participant is at risk after this many days without a device sync. */
  riskNoSyncDays: 2,
  /** Remind a participant after this many days without a sync; null: no reminders. */
  reminderNoSyncDays: null as number | null,
  /**
   * Participants sign the study's consent form before any data is collected. New studies: on;
   * studies created before the setting read as off (migration 0024), so running studies go on.
   */
  consentRequired: true,
  /** What a participant's withdrawal does to the data collected so far: kept, or deleted. */
  withdrawalData: 'keep' as WithdrawalData,
} as const;

export const WITHDRAWAL_DATA = ['keep', 'delete'] as const;
export type WithdrawalData = (typeof WITHDRAWAL_DATA)[number];

/** Limits of a consent form and of a signature. */
export const CONSENT_LIMITS = {
  markdownMaxChars: 50_000,
  maxStatements: 20,
  statementMaxChars: 500,
  fullNameMaxChars: 200,
  /** An uploaded PDF form. */
  pdfMaxBytes: 10 * 1024 * 1024,
} as const;

/** Count-only list requests ask for a single row and read totalCount. */
export const COUNT_REQUEST_LIMIT = 1;

/** The researcher-facing catalogue of data types, in the order the extraction panel lists them. */
export const DATA_TYPES = [
  'profile',
  'activity_summary',
  'activity_steps_timeseries',
  'activity_calories_timeseries',
  'activity_distance_timeseries',
  'activity_steps_intraday',
  'activity_calories_intraday',
  'heartrate_summary',
  'heartrate_timeseries',
  'heartrate_intraday_1sec',
  'heartrate_intraday_1min',
  'sleep_log',
] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Data type preselected in the extraction panel. */
export const DEFAULT_DATA_TYPE: DataType = 'profile';

/** Time-series data types cover this many days. */
export const TIME_SERIES_DAYS = 7;

/** The extraction panel lists the jobs of the newest runs only. */
export const EXTRACTION_RUN_LIST_LIMIT = 5;

/** Job names in the list are cut to this many characters plus an ellipsis. */
export const EXTRACTION_JOB_NAME_MAX_CHARS = 10;

/** Longest range one extraction run may cover. */
export const EXTRACTION_MAX_RANGE_DAYS = 366;
/** Participants in one extraction run. */
export const EXTRACTION_MAX_PARTICIPANTS = 500;

/** File formats of an analysis-ready export. */
export const EXPORT_FORMATS = ['parquet', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** The Data export tab and the list call show this many newest exports. */
export const EXPORT_LIST_LIMIT = 20;

/** Previews list this many items, then '+N more'. */
export const PREVIEW_ITEMS = 5;

/**
 * Files one form may attach: a researcher's verification documents and a participant's profile
 * documents alike. Every check and every text reads this one number.
 */
export const DOCUMENT_MAX_FILES = 5;

/** Researcher verification documents attached to an application. */
export const RESEARCHER_DOCUMENTS = {
  maxFiles: DOCUMENT_MAX_FILES,
  maxFileBytes: 10 * 1024 * 1024,
  mimeTypes: ['application/pdf', 'image/png', 'image/jpeg'],
} as const;

/** File extensions a participant may attach to the profile form. */
export const PARTICIPANT_DOCUMENT_EXTENSIONS = [
  'pdf',
  'doc',
  'docx',
  'jpg',
  'jpeg',
  'png',
  'gif',
] as const;

/** Participant documents on the profile form: 5 files of at most 10 MB each. */
export const PARTICIPANT_DOCUMENT_LIMITS = {
  maxFiles: DOCUMENT_MAX_FILES,
  /** All the documents a participant keeps, over every submission (bounds what one can store). */
  maxKeptFiles: 20,
  maxFileBytes: 10 * 1024 * 1024,
  additionalInfoMaxLength: 5000,
} as const;

export const ROLES = ['researcher', 'master'] as const;
export type Role = (typeof ROLES)[number];

/** 'noprofile' is the status of a signed-in user who has not applied yet. */
export const RESEARCHER_STATUSES = ['noprofile', 'pending', 'approved', 'rejected'] as const;
export type ResearcherStatus = (typeof RESEARCHER_STATUSES)[number];

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Label of the create-study button while the study is being created. */
export const STUDY_CREATE_WAIT_MESSAGE = 'Please wait 30 seconds for study to be created...';
