import { REMINDER_MESSAGES, REMINDERS_STOP_TEXTS } from '@research/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { installFakeApi } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

// The page loads lazily through the real route tree: allow for a slow first render.
const PAGE_TEST_TIMEOUT = 20_000;

describe('/participant/reminders/stop', () => {
  it(
    'sends the link’s token only when the person confirms, then says the reminders stopped',
    async () => {
      const user = userEvent.setup();
      const api = installFakeApi({
        'POST /api/participant/reminders/stop': {
          body: { success: true, message: REMINDER_MESSAGES.stopped },
        },
      });
      renderRoute('/participant/reminders/stop?token=abc_DEF-123');
      const button = await screen.findByRole('button', { name: REMINDERS_STOP_TEXTS.confirm });
      expect(api.calls).toHaveLength(0);

      await user.click(button);
      expect(await screen.findByRole('status')).toHaveTextContent(REMINDER_MESSAGES.stopped);
      expect(
        screen.getByRole('heading', { name: REMINDERS_STOP_TEXTS.stoppedTitle }),
      ).toBeInTheDocument();
      expect(api.calls.map((call) => call.body)).toEqual([{ token: 'abc_DEF-123' }]);
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'shows the server’s answer to a link that is not valid',
    async () => {
      const user = userEvent.setup();
      installFakeApi({
        'POST /api/participant/reminders/stop': {
          status: 400,
          body: {
            success: false,
            error: 'Bad Request',
            message: REMINDER_MESSAGES.linkInvalid,
            code: 'REMINDER_LINK_INVALID',
          },
        },
      });
      renderRoute('/participant/reminders/stop?token=stale');
      await user.click(await screen.findByRole('button', { name: REMINDERS_STOP_TEXTS.confirm }));
      expect(await screen.findByRole('alert')).toHaveTextContent(REMINDER_MESSAGES.linkInvalid);
    },
    PAGE_TEST_TIMEOUT,
  );

  it(
    'says the link is incomplete when it has no token',
    async () => {
      installFakeApi({});
      renderRoute('/participant/reminders/stop');
      expect(await screen.findByRole('alert')).toHaveTextContent(REMINDERS_STOP_TEXTS.missingToken);
      expect(screen.queryByRole('button', { name: REMINDERS_STOP_TEXTS.confirm })).toBeNull();
    },
    PAGE_TEST_TIMEOUT,
  );
});
