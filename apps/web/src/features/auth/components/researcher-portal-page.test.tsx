import { ACCOUNT_FORM_MESSAGES } from '@research/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { failure, installFakeApi, makeProfile, makeUser } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

async function openPortal(routes: Parameters<typeof installFakeApi>[0] = {}) {
  const api = installFakeApi(routes);
  const view = renderRoute('/researcher/auth');
  await screen.findByRole('heading', { level: 1, name: 'Researcher Portal' });
  return { ...api, ...view, user: userEvent.setup() };
}

const signInButton = () => screen.getByRole('button', { name: 'Sign In' });
const alertText = async () => (await screen.findByRole('alert')).textContent;

describe('Researcher Portal', () => {
  it('shows Google, the divider, both tabs, the sign-in fields and the footer', async () => {
    await openPortal();
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toBeInTheDocument();
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(screen.getByText('Need help? Contact your research administrator')).toBeInTheDocument();
  });

  it('sign in: both fields required', async () => {
    const { user, calls } = await openPortal();
    await user.click(signInButton());
    expect(await alertText()).toBe('Please fill in all fields');
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.click(signInButton());
    expect(await alertText()).toBe('Please fill in all fields');
    expect(calls).toHaveLength(0);
  });

  it("sign in failure shows 'Failed to sign in: ' and the server message", async () => {
    const { user } = await openPortal({
      'POST /api/auth/login': {
        status: 401,
        body: failure('Invalid email or password', 'INVALID_CREDENTIALS'),
      },
    });
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(signInButton());
    expect(await alertText()).toBe('Failed to sign in: Invalid email or password');
  });

  it('sign in success goes to /dashboard and on to the right place', async () => {
    const signedIn = makeUser();
    const { user, router } = await openPortal({
      'POST /api/auth/login': {
        body: { success: true, token: 'token-0123456789abcdef', user: signedIn, message: 'ok' },
      },
      'GET /api/admin/check-master-status': { body: { success: true, isMasterAccount: false } },
      'GET /api/auth/profile': {
        body: { success: true, researcher: makeProfile({ status: 'approved' }) },
      },
    });
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.type(screen.getByLabelText('Password'), 'secret1');
    await user.click(signInButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/researcher/dashboard'));
  });

  describe('sign up', () => {
    async function fillSignUp(
      user: ReturnType<typeof userEvent.setup>,
      values: { name?: string; email?: string; password?: string; confirm?: string },
    ) {
      await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
      if (values.name) await user.type(screen.getByLabelText('Full Name'), values.name);
      if (values.email) await user.type(screen.getByLabelText('Email Address'), values.email);
      if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
      if (values.confirm)
        await user.type(screen.getByLabelText('Confirm Password'), values.confirm);
      await user.click(screen.getByRole('button', { name: 'Create Account' }));
    }

    it('shows the helper text', async () => {
      const { user } = await openPortal();
      await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
      expect(screen.getByText('Minimum 6 characters')).toBeInTheDocument();
    });

    it.each([
      [
        { name: 'Ada', email: 'ada@example.test', password: 'secret1' },
        ACCOUNT_FORM_MESSAGES.fillAllFields,
      ],
      [
        { name: 'Ada', email: 'ada@example.test', password: 'secret1', confirm: 'secret2' },
        'Passwords do not match',
      ],
      [
        { name: 'Ada', email: 'ada@example.test', password: 'abc', confirm: 'abc' },
        'Password must be at least 6 characters',
      ],
    ])('%o → %s', async (values, message) => {
      const { user, calls } = await openPortal();
      await fillSignUp(user, values);
      expect(await alertText()).toBe(message);
      expect(calls).toHaveLength(0);
    });

    it("failure shows 'Failed to create account: ' and the server message", async () => {
      const { user } = await openPortal({
        'POST /api/auth/register': {
          status: 409,
          body: failure('An account with this email already exists', 'EMAIL_IN_USE'),
        },
      });
      await fillSignUp(user, {
        name: 'Ada Lovelace',
        email: 'ada@example.test',
        password: 'secret1',
        confirm: 'secret1',
      });
      expect(await alertText()).toBe(
        'Failed to create account: An account with this email already exists',
      );
    });

    it('success goes to /researcher/register', async () => {
      const { user, router, calls } = await openPortal({
        'POST /api/auth/register': {
          status: 201,
          body: { success: true, token: 'token-0123456789abcdef', user: makeUser(), message: 'ok' },
        },
        'GET /api/admin/check-master-status': { body: { success: true, isMasterAccount: false } },
        'GET /api/auth/profile': { body: { success: true, researcher: makeProfile() } },
      });
      await fillSignUp(user, {
        name: 'Ada Lovelace',
        email: 'ada@example.test',
        password: 'secret1',
        confirm: 'secret1',
      });
      await waitFor(() => expect(router.state.location.pathname).toBe('/researcher/register'));
      expect(calls.find((c) => c.path === '/api/auth/register')?.body).toEqual({
        email: 'ada@example.test',
        password: 'secret1',
        displayName: 'Ada Lovelace',
      });
    });
  });

  it('switching tabs clears the error and the success message', async () => {
    const { user } = await openPortal({
      'POST /api/auth/forgot-password': {
        body: { success: true, message: ACCOUNT_FORM_MESSAGES.passwordResetSent },
      },
    });
    await user.click(signInButton());
    expect(await alertText()).toBe('Please fill in all fields');
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.queryByRole('alert')).toBeNull();

    await user.click(screen.getByRole('tab', { name: 'Sign In' }));
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(await alertText()).toBe(ACCOUNT_FORM_MESSAGES.passwordResetSent);
    await user.click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('forgot password needs the e-mail first', async () => {
    const { user, calls } = await openPortal();
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(await alertText()).toBe('Please enter your email address first');
    expect(calls).toHaveLength(0);
  });

  it("forgot password failure shows 'Failed to reset password: '", async () => {
    const { user } = await openPortal({
      'POST /api/auth/forgot-password': {
        // The route's own limit: the call never answers TOO_MANY_ATTEMPTS (it stays silent).
        status: 429,
        body: failure('Too many requests, try again in 5 minutes', 'RATE_LIMITED'),
      },
    });
    await user.type(screen.getByLabelText('Email'), 'ada@example.test');
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(await alertText()).toBe(
      'Failed to reset password: Too many requests, try again in 5 minutes',
    );
  });

  it('Google: a blocked popup says so', async () => {
    const { user } = await openPortal();
    vi.spyOn(window, 'open').mockReturnValue(null);
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await alertText()).toBe(
      'Failed to sign in with Google: Popup blocked. Please allow popups for this site and try again.',
    );
    expect(window.open).toHaveBeenCalledWith(
      expect.stringMatching(/^\/api\/auth\/google\/start\?binding=[A-Za-z0-9_-]{43}$/),
      'google-sign-in',
      'width=500,height=650',
    );
  });

  it('Google: the popup closed before finishing', async () => {
    const { user } = await openPortal();
    vi.spyOn(window, 'open').mockReturnValue({ closed: true, close() {} } as unknown as Window);
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByRole('alert', {}, { timeout: 3000 })).toHaveTextContent(
      'Failed to sign in with Google: The sign-in window was closed before finishing.',
    );
  });
});
