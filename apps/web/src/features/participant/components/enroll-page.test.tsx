import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import {
  EMAIL,
  emailVerifiedReply,
  NO_CONSENT_REPLY,
  PARTICIPANT_ID,
  participantSession,
  STUDY,
} from '../../../test/participant-fixtures';
import { renderRoute } from '../../../test/render-route';

/** The server as /participant/enroll sees it: a code first, then the answer with the session. */
function stubServer(options: { alreadyEnrolled?: boolean } = {}) {
  const session = participantSession();
  let enrolCalls = 0;
  return installFakeApi({
    'GET /api/participants/consent': NO_CONSENT_REPLY,
    'POST /api/auth/verify-study-code': { body: { success: true, study: STUDY } },
    // The first call sends the code; the one after it (with the session) answers the enrolment.
    'POST /api/participants/enroll-direct': () =>
      enrolCalls++ === 0
        ? {
            body: {
              success: true,
              message: 'Verification code sent to your email!',
              participantId: PARTICIPANT_ID,
              verificationRequired: true,
            },
          }
        : {
            body: {
              success: true,
              message: options.alreadyEnrolled
                ? 'You are already enrolled in this study. Nothing was changed.'
                : 'Enrollment successful. Please connect your Fitbit device.',
              participantId: PARTICIPANT_ID,
              verificationRequired: false,
              fitbitAuthUrl: 'https://accounts.google.test/o/oauth2/v2/auth?state=s',
              session,
              alreadyEnrolled: options.alreadyEnrolled === true,
              wearableConnected: options.alreadyEnrolled === true,
            },
          },
    'POST /api/verification/verify-email-code': emailVerifiedReply(),
  });
}

async function fill(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

const PAGE_TEST_TIMEOUT = 20_000;
const stepHeading = (name: string) => screen.findByRole('heading', { level: 2, name });

async function reachCode(user: ReturnType<typeof userEvent.setup>) {
  // The page loads lazily through the real route tree: allow for a slow first render.
  await screen.findByLabelText(/Study Code/, {}, { timeout: 10_000 });
  await user.click(screen.getByRole('button', { name: 'Verify Study Code' }));
  await user.click(await screen.findByRole('button', { name: 'Continue' }));
  await fill(user, await screen.findByLabelText(/First Name/), 'Ada');
  await fill(user, screen.getByLabelText(/Last Name/), 'Lovelace');
  await fill(user, screen.getByLabelText(/Email Address/), EMAIL);
  await fill(user, screen.getByLabelText(/Date of Birth/), '1990-05-17');
  await user.click(screen.getByRole('button', { name: 'Enroll and Connect Fitbit' }));
  expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
}

beforeEach(() => sessionStorage.clear());

describe('/participant/enroll', () => {
  it(
    'resumes at the e-mail code after a reload, with what was typed',
    async () => {
      const user = userEvent.setup();
      const { calls } = stubServer();
      const first = renderRoute(`/participant/enroll?code=${STUDY.studyCode}`);
      await reachCode(user);
      first.unmount();

      renderRoute(`/participant/enroll?code=${STUDY.studyCode}`);
      expect(await stepHeading('Personal Information')).toBeInTheDocument();
      expect(await screen.findByLabelText(/Verification Code/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Back' }));
      expect(screen.getByLabelText(/First Name/)).toHaveValue('Ada');
      expect(screen.getByLabelText(/Date of Birth/)).toHaveValue('1990-05-17');
      expect(calls.filter((c) => c.path === '/api/participants/enroll-direct')).toHaveLength(1);
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'tells an enrolled person so after the code instead of sending them to Google, and offers their details',
    async () => {
      const user = userEvent.setup();
      stubServer({ alreadyEnrolled: true });
      renderRoute(`/participant/enroll?code=${STUDY.studyCode}`);
      await reachCode(user);
      await fill(user, screen.getByLabelText(/Verification Code/), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify Code' }));

      const panel = await screen.findByRole('region', {
        name: 'You are already enrolled in this study',
      });
      expect(panel).toHaveTextContent(
        'Nothing was changed. To change your name or other details, choose Update My Details.',
      );
      expect(screen.getByRole('button', { name: 'Reconnect Fitbit' })).toBeEnabled();
      await user.click(screen.getByRole('button', { name: 'Update My Details' }));
      expect(
        await screen.findByRole('heading', { name: 'Complete Your Profile' }, { timeout: 10_000 }),
      ).toBeInTheDocument();
      expect(screen.getByLabelText(/First Name/)).toHaveValue('Ada');
    },
    PAGE_TEST_TIMEOUT,
  );
});
