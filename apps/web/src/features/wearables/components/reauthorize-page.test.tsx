import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

// Starting the authorization is what fails in these cases; how it fails is up to each test.
const flow = vi.hoisted(() => ({ startAuthorization: vi.fn<() => Promise<string>>() }));
vi.mock('../../../lib/wearables/authorization-flow', () => flow);

const PARTICIPANT = 'P0123456789abcdef';
const EMAIL = 'sam@example.org';

function answerVerify() {
  installFakeApi({
    'POST /api/participants/verify': {
      body: {
        success: true,
        data: {
          participantId: PARTICIPANT,
          participantEmail: EMAIL,
          studyCode: 'ABC123',
          status: 'enrolled',
          createdAt: '2026-01-01T00:00:00.000Z',
          fitbitTokens: { accessToken: false },
        },
      },
    },
  });
}

async function reconnect() {
  renderRoute(`/fitbit/reauthorize?participantId=${PARTICIPANT}&email=${EMAIL}`);
  fireEvent.click(await screen.findByRole('button', { name: 'Reconnect Fitbit Device' }));
  return (await screen.findByRole('alert')).textContent;
}

describe('/fitbit/reauthorize failures', () => {
  beforeEach(answerVerify);
  afterEach(() => {
    vi.unstubAllGlobals();
    flow.startAuthorization.mockReset();
  });

  it("says 'Failed to initiate reauthorization: {reason}' when starting fails with a reason", async () => {
    flow.startAuthorization.mockRejectedValue(new Error('The wearable provider did not answer.'));
    expect(await reconnect()).toBe(
      'Failed to initiate reauthorization: The wearable provider did not answer.',
    );
  });

  it("says 'Reauthorization failed: Unknown error' when starting fails without one, never both nested", async () => {
    flow.startAuthorization.mockRejectedValue(new Error(''));
    expect(await reconnect()).toBe('Reauthorization failed: Unknown error');
  });
});
