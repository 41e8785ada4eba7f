import { VERIFY_EMAIL_STEPS, type VerificationStatus } from '@research/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';
import { startStepFor } from './verify-email-page';

describe('the multi-step verification start', () => {
  it.each([
    ['fully_verified', 'Complete Enrollment'],
    ['email_verified', 'Phone Verification'],
    ['phone_verified', 'Complete Enrollment'],
    ['none', 'Email Verification'],
  ] as const)('%s starts at %s', (status, step) => {
    expect(VERIFY_EMAIL_STEPS[startStepFor(status)]).toBe(step);
  });
});

const PARTICIPANT_ID = 'P0123456789abcdef';
/** The server as the page sees it (checked against the operations): status, study, a sent code. */
function stubServer(status: VerificationStatus) {
  installFakeApi({
    [`GET /api/verification/status/${PARTICIPANT_ID}`]: {
      body: {
        success: true,
        data: {
          participantId: PARTICIPANT_ID,
          email: 'p@example.org',
          studyCode: 'ABC123',
          verificationStatus: status,
          emailVerifiedAt: status === 'none' ? null : new Date().toISOString(),
          phoneVerifiedAt: null,
        },
      },
    },
    'POST /api/auth/verify-study-code': {
      body: {
        success: true,
        study: {
          studyName: 'Sleep',
          studyDescription: null,
          studyCode: 'ABC123',
          researcherName: 'Ada',
        },
      },
    },
    'POST /api/verification/send-phone-code': () => ({
      body: {
        success: true,
        message: 'Verification code sent to your phone!',
        expiresAt: new Date(Date.now() + 600_000).toISOString(),
        resendAfter: new Date(Date.now() + 30_000).toISOString(),
      },
    }),
  });
}

/** Types by pasting: one event per field keeps the test quick on a busy machine. */
async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function enterInformation(user: ReturnType<typeof userEvent.setup>) {
  await fill(user, await screen.findByLabelText(/Participant ID/), PARTICIPANT_ID);
  await fill(user, screen.getByLabelText(/Email Address/), 'p@example.org');
  await fill(user, screen.getByLabelText(/Study Code/), 'ABC123');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

// The page loads lazily through the real route tree: allow for a slow first render.
const PAGE_TEST_TIMEOUT = 20_000;

const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });

describe('/participant/verify-email Back buttons', () => {
  it(
    'goes from the phone code back to the e-mail step, not to the start',
    async () => {
      const user = userEvent.setup();
      stubServer('email_verified');
      renderRoute('/participant/verify-email');
      await enterInformation(user);
      expect(await stepHeading('Phone Verification')).toBeInTheDocument();
      await fill(user, screen.getByLabelText(/Phone Number/), '6175550142');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(await stepHeading('Email Verification')).toBeInTheDocument();
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'goes from Complete Enrollment to the phone step, and from there to the e-mail step',
    async () => {
      const user = userEvent.setup();
      stubServer('fully_verified');
      renderRoute('/participant/verify-email');
      await enterInformation(user);
      expect(await stepHeading('Complete Enrollment')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(await stepHeading('Phone Verification')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(await stepHeading('Email Verification')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(await stepHeading('Enter Information')).toBeInTheDocument();
    },
    PAGE_TEST_TIMEOUT,
  );
});
