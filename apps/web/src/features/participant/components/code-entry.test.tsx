import type { VerifyCodeResponse } from '@research/contracts';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { CodeEntry } from './code-entry';

const wrong = () => Promise.reject(new ApiError('Invalid verification code', 400, 'INVALID_CODE'));
const ended = () =>
  Promise.reject(
    new ApiError('Too many failed attempts. Please request a new code.', 400, 'TOO_MANY_ATTEMPTS'),
  );

describe('CodeEntry', () => {
  it('checks the format, counts wrong codes n/3, locks after the third and unlocks with a new code', async () => {
    const user = userEvent.setup();
    const verify = vi
      .fn<(code: string) => Promise<VerifyCodeResponse>>()
      .mockImplementationOnce(wrong)
      .mockImplementationOnce(wrong)
      .mockImplementationOnce(ended);
    const send = vi.fn(async () => ({ resendAfter: new Date(Date.now() + 30_000).toISOString() }));
    render(
      <CodeEntry
        channel="phone"
        alreadySent
        initialResendAfter={new Date(Date.now() - 1000).toISOString()}
        send={send}
        verify={verify}
        onVerified={() => {}}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Verification code sent to your phone!');
    const input = screen.getByLabelText(/Verification Code/);
    const submit = screen.getByRole('button', { name: 'Verify Code' });

    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter the verification code');
    await user.type(input, '12a45');
    expect(input).toHaveValue('1245');
    await user.click(submit);
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid 6-digit code');
    expect(verify).not.toHaveBeenCalled();

    for (const n of [1, 2]) {
      await user.clear(input);
      await user.type(input, '000000');
      await user.click(submit);
      expect(await screen.findByText(`Attempts: ${n}/3`)).toBeInTheDocument();
      expect(screen.getByRole('alert')).toHaveTextContent('Invalid verification code');
    }
    await user.type(input, '000000');
    await user.click(submit);
    expect(await screen.findByText('Attempts: 3/3')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Too many failed attempts. Please request a new code.',
    );
    expect(input).toBeDisabled();
    expect(submit).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Resend Code' }));
    expect(send).toHaveBeenCalledOnce();
    expect(await screen.findByText('Attempts: 0/3')).toBeInTheDocument();
    expect(input).toBeEnabled();
    expect(screen.getByRole('button', { name: /Resend code in \d+s/ })).toBeDisabled();
  });

  it("shows the server's count of attempts, not only this page's", async () => {
    const user = userEvent.setup();
    // One wrong code was already typed for this code elsewhere (another tab, before a reload).
    const verify = vi.fn<(code: string) => Promise<VerifyCodeResponse>>(() =>
      Promise.reject(
        new ApiError('Invalid verification code', 400, 'INVALID_CODE', [], {
          attemptsUsed: 2,
          maxAttempts: 3,
        }),
      ),
    );
    render(
      <CodeEntry
        channel="email"
        alreadySent
        send={async () => ({})}
        verify={verify}
        onVerified={() => {}}
      />,
    );
    expect(screen.getByText('Attempts: 0/3')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Verification Code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify Code' }));
    expect(await screen.findByText('Attempts: 2/3')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid verification code');
  });
});
