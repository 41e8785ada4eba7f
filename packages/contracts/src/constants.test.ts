import { describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEYS, REQUEST_SETTINGS } from './client-settings.js';
import {
  CSV_MAX_BYTES,
  DATA_TYPES,
  DEFAULT_DATA_TYPE,
  DEFAULT_STUDY_SETTINGS,
  PARTICIPANT_DOCUMENT_EXTENSIONS,
  PARTICIPANT_ID_LENGTH,
  PARTICIPANT_ID_PREFIX,
  POPUP,
  REDIRECT_DELAYS_MS,
  RESEARCHER_DOCUMENTS,
  STUDY_CODE,
  STUDY_CODE_ALPHABET,
  STUDY_CREATE_WAIT_MESSAGE,
} from './constants.js';
import { isValidStudyCode } from './validators.js';

describe('constants', () => {
  it('lists 12 distinct data types, grouped by family, with profile first and the default', () => {
    expect(new Set(DATA_TYPES).size).toBe(12);
    const families = DATA_TYPES.map((type) => type.split('_')[0]);
    expect([...new Set(families)]).toEqual(['profile', 'activity', 'heartrate', 'sleep']);
    // Grouped: each family's types stand together, so the panel lists them side by side.
    expect(families).toEqual(
      [...families].sort((a, b) => families.indexOf(a) - families.indexOf(b)),
    );
    expect(DATA_TYPES[0]).toBe('profile');
    expect(DEFAULT_DATA_TYPE).toBe('profile');
  });

  it('uses a study-code alphabet without look-alikes that yields valid codes', () => {
    for (const ch of ['0', 'O', '1', 'I', 'L']) expect(STUDY_CODE_ALPHABET).not.toContain(ch);
    expect(STUDY_CODE_ALPHABET).toMatch(/^[A-Z2-9]+$/);
    expect(new Set(STUDY_CODE_ALPHABET).size).toBe(STUDY_CODE_ALPHABET.length);
    expect(STUDY_CODE_ALPHABET).toHaveLength(31);
    expect(isValidStudyCode(STUDY_CODE_ALPHABET.slice(0, STUDY_CODE.generatedLength))).toBe(true);
    expect(STUDY_CODE.generatedLength).toBeLessThanOrEqual(STUDY_CODE.joinEntryLength);
  });

  it('keeps the exact shapes other packages import', () => {
    expect(REQUEST_SETTINGS).toEqual({ timeoutMs: 30000, retryAttempts: 3, retryDelayMs: 1000 });
    expect(AUTH_STORAGE_KEYS).toEqual({ token: 'auth_token', user: 'auth_user' });
    expect(POPUP).toEqual({
      width: 600,
      height: 700,
      closedCheckMs: 3000,
      closeAfterSuccessMs: 500,
    });
    expect(DEFAULT_STUDY_SETTINGS).toEqual({
      allowSelfEnrollment: false,
      requireVerification: true,
      dataRetentionDays: 365,
      removeDataDeletedAtSource: false,
      validDayMinHours: 10,
      riskNoSyncDays: 2,
      reminderNoSyncDays: null,
      consentRequired: true,
      withdrawalData: 'keep',
    });
    expect(REDIRECT_DELAYS_MS).toEqual({
      applicationSubmit: 3000,
      profileSubmit: 3000,
      wearableSuccess: 3000,
    });
  });

  it('states the file limits in bytes', () => {
    expect(CSV_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(RESEARCHER_DOCUMENTS.maxFileBytes).toBe(10_485_760);
    expect(RESEARCHER_DOCUMENTS.maxFiles).toBe(5);
    expect(RESEARCHER_DOCUMENTS.mimeTypes).toEqual(['application/pdf', 'image/png', 'image/jpeg']);
    // Bare lower-case extensions, as the file picker's accept list and isAllowedParticipantDocument compare them.
    for (const ext of PARTICIPANT_DOCUMENT_EXTENSIONS) expect(ext).toMatch(/^[a-z]+$/);
    expect(new Set(PARTICIPANT_DOCUMENT_EXTENSIONS).size).toBe(
      PARTICIPANT_DOCUMENT_EXTENSIONS.length,
    );
    expect(PARTICIPANT_DOCUMENT_EXTENSIONS).toEqual(
      expect.arrayContaining(['pdf', 'doc', 'docx', 'jpg', 'png']),
    );
  });

  it('describes participant ids and the create wait text', () => {
    expect(PARTICIPANT_ID_PREFIX.length + 16).toBe(PARTICIPANT_ID_LENGTH);
    expect(STUDY_CREATE_WAIT_MESSAGE).toBe('Please wait 30 seconds for study to be created...');
  });
});
