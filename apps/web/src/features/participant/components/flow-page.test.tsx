import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { type FakeRequest, failure, installFakeApi } from '../../../test/fake-api';
import {
  EMAIL,
  emailVerifiedReply,
  iso,
  NO_CONSENT_REPLY,
  PARTICIPANT_ID,
  participantSession,
  STUDY,
} from '../../../test/participant-fixtures';
import { renderRoute } from '../../../test/render-route';

const PHONE = '+16175550142';

/**
 * The server as /participant/flow sees it: the study, the roster check (the number on record
 * only when typed right), codes (the second within 30 s refused, as the server does), and
 * enrolment after a verified code.
 */
function stubServer(options: { phoneOnRecord?: boolean; alreadyEnrolled?: boolean } = {}) {
  let lastSent = 0;
  const sendCode = (channel: 'email' | 'phone') => () => {
    const wait = Math.ceil((lastSent + 30_000 - Date.now()) / 1000);
    if (wait > 0)
      return {
        status: 429,
        body: {
          ...failure(
            `Please wait ${wait} seconds before requesting a new code.`,
            'RESEND_TOO_SOON',
          ),
          details: { retryAfterSeconds: wait },
        },
      };
    lastSent = Date.now();
    return {
      body: {
        success: true,
        message: `Verification code sent to your ${channel}!`,
        expiresAt: iso(600_000),
        resendAfter: iso(30_000),
      },
    };
  };
  const session = participantSession();
  return installFakeApi({
    'GET /api/participants/consent': NO_CONSENT_REPLY,
    'POST /api/auth/verify-study-code': { body: { success: true, study: STUDY } },
    'POST /api/participants/check-pending': (request: FakeRequest) => {
      const typed = (request.body as { phoneNumber: string }).phoneNumber;
      return {
        body: {
          success: true,
          pending: true,
          message: 'You are approved for this study! Please choose your verification method.',
          participant: {
            participantId: PARTICIPANT_ID,
            email: EMAIL,
            phoneNumber: options.phoneOnRecord !== false && typed === PHONE ? PHONE : null,
            studyCode: STUDY.studyCode,
            studyName: STUDY.studyName,
            status: 'pending',
            createdAt: iso(0),
          },
        },
      };
    },
    'POST /api/verification/send-email-code': sendCode('email'),
    'POST /api/verification/send-phone-code': sendCode('phone'),
    'POST /api/verification/verify-email-code': emailVerifiedReply(),
    'POST /api/participants/enroll': {
      body: {
        success: true,
        message: options.alreadyEnrolled
          ? 'You are already enrolled in this study. Nothing was changed.'
          : 'Enrollment successful. Please connect your Fitbit device.',
        participantId: PARTICIPANT_ID,
        fitbitAuthUrl: 'https://accounts.google.test/o/oauth2/v2/auth?state=s',
        session,
        alreadyEnrolled: options.alreadyEnrolled === true,
      },
    },
  });
}

async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

const PAGE_TEST_TIMEOUT = 20_000;
const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });

/** Study code and contact info, up to the choice of method. */
async function reachMethod(user: ReturnType<typeof userEvent.setup>, phone = '6175550142') {
  // The page loads lazily through the real route tree: allow for a slow first render.
  await fill(
    user,
    await screen.findByLabelText(/Study Code/, {}, { timeout: 10_000 }),
    STUDY.studyCode,
  );
  await user.click(screen.getByRole('button', { name: 'Verify Study Code' }));
  await fill(user, await screen.findByLabelText(/Email Address/), EMAIL);
  await fill(user, screen.getByLabelText(/Phone Number/), phone);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await stepHeading('Choose Verification Method')).toBeInTheDocument();
}

const sendCalls = (calls: FakeRequest[]) =>
  calls.filter((c) => c.path.startsWith('/api/verification/send-')).length;

beforeEach(() => sessionStorage.clear());

describe('/participant/flow', () => {
  it(
    'after Send Code and Back, opens the entry of the code still valid and says when a new one can be sent',
    async () => {
      const user = userEvent.setup();
      const { calls } = stubServer();
      renderRoute('/participant/flow');
      await reachMethod(user);
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(await stepHeading('Choose Verification Method')).toBeInTheDocument();
      expect(
        screen.getByText(/We already sent a code to your email\. It is still valid/),
      ).toHaveTextContent(/You can ask for a new code in \d+ seconds\./);
      await user.click(screen.getByRole('button', { name: 'Enter Code' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      expect(sendCalls(calls)).toBe(1);
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'opens the code entry when the server says a code went out under 30 s ago (e.g. from another tab)',
    async () => {
      const user = userEvent.setup();
      stubServer();
      const first = renderRoute('/participant/flow');
      await reachMethod(user);
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      first.unmount();
      // This tab forgets the code, the server still knows it.
      sessionStorage.clear();
      renderRoute('/participant/flow');
      await reachMethod(user);
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent(
        'We already sent a code to your email. It is still valid',
      );
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'says a typed phone number does not match the records, in the same words whether or not one is on record',
    async () => {
      for (const phoneOnRecord of [true, false]) {
        sessionStorage.clear();
        const user = userEvent.setup();
        stubServer({ phoneOnRecord });
        const view = renderRoute('/participant/flow');
        await reachMethod(user, '6175550199');
        const text = screen.getByRole('radio', {
          name: 'Text message (the phone number you entered does not match our records)',
        });
        expect(text).toBeDisabled();
        expect(
          screen.getByText(
            'To get a text message, go Back and enter the phone number the research team has for you.',
          ),
        ).toBeInTheDocument();
        view.unmount();
      }
    },
    PAGE_TEST_TIMEOUT * 2,
  );

  it(
    'resumes at the code entry after a reload, and at Fitbit once verified',
    async () => {
      const user = userEvent.setup();
      const { calls } = stubServer();
      const first = renderRoute('/participant/flow');
      await reachMethod(user);
      await user.click(screen.getByRole('radio', { name: /^Text message/ }));
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      first.unmount();

      // The reload.
      const second = renderRoute('/participant/flow');
      expect(await stepHeading('Enter Verification Code')).toBeInTheDocument();
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(screen.getByRole('radio', { name: 'Text message to (617) 555-0142' })).toBeChecked();
      await user.click(screen.getByRole('radio', { name: /^Email/ }));
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      await fill(user, await screen.findByLabelText(/Verification Code/), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify Code' }));
      expect(await stepHeading('Fitbit Authorization')).toBeInTheDocument();
      second.unmount();

      renderRoute('/participant/flow');
      expect(await stepHeading('Fitbit Authorization')).toBeInTheDocument();
      // After the consent check (this study asks for none).
      expect(await screen.findByRole('button', { name: 'Connect Fitbit' })).toBeEnabled();
      // The session token stays where it was: this tab's enrolment, not the page's progress.
      expect(sessionStorage.getItem('participant_flow_progress')).not.toContain('session-token');
      expect(calls.filter((c) => c.path === '/api/participants/enroll')).toHaveLength(1);
    },
    PAGE_TEST_TIMEOUT * 2,
  );

  it(
    'tells an enrolled person so after the code, and offers their details besides the wearable',
    async () => {
      const user = userEvent.setup();
      stubServer({ alreadyEnrolled: true });
      renderRoute('/participant/flow');
      await reachMethod(user);
      await user.click(screen.getByRole('button', { name: 'Send Code' }));
      await fill(user, await screen.findByLabelText(/Verification Code/), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify Code' }));
      expect(await screen.findByText('You are already enrolled')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Connect Fitbit' })).toBeEnabled();
      await user.click(screen.getByRole('button', { name: 'Update My Details' }));
      expect(await stepHeading('Personal Information')).toBeInTheDocument();
    },
    PAGE_TEST_TIMEOUT,
  );
});
