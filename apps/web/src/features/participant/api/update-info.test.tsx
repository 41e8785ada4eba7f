import { PARTICIPANT_SESSION_HEADER } from '@research/contracts';
import { describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { saveEnrolment } from '../session';
import { updateInfo } from './update-info';

const PARTICIPANT_ID = 'P0123456789abcdef';

describe('updateInfo', () => {
  it('sends the fields and document_{n} files as multipart, with this tab’s session', async () => {
    saveEnrolment({
      participantId: PARTICIPANT_ID,
      studyCode: 'ABC123',
      sessionId: 'session-token',
      sessionExpiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    const { calls } = installFakeApi({
      'POST /api/participants/update-info': {
        body: {
          success: true,
          participantId: PARTICIPANT_ID,
          message: 'Your information was saved.',
          informationCompleted: true,
          informationCompletedAt: new Date().toISOString(),
          documents: [],
        },
      },
    });
    const scan = new File(['%PDF-1.4'], 'scan.pdf', { type: 'application/pdf' });

    // The text fields go as they are; the files are appended as document_0, document_1, …
    const fields = {
      participantId: PARTICIPANT_ID,
      studyCode: 'ABC123',
      firstName: 'Grace',
      lastName: 'Hopper',
      additionalInfo: '',
      email: 'grace@example.org',
      phoneNumber: '6175550142',
    };
    const result = await updateInfo({ ...fields, documents: [scan] });

    expect(result.informationCompleted).toBe(true);
    const form = calls[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(
      Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string')),
    ).toEqual(fields);
    expect((form.get('document_0') as File).name).toBe('scan.pdf');
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(new Headers(init?.headers).get(PARTICIPANT_SESSION_HEADER)).toBe('session-token');
  });
});
