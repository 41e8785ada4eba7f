import { APPLICATION_MESSAGES, RESEARCHER_DOCUMENTS } from '@research/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type AccountKind,
  type FakeRoute,
  failure,
  installAccount,
  makeApplication,
  makeProfile,
} from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';

const REGISTER = '/researcher/register';
const LOAD = { timeout: 5000 };
const SUBMIT = 'POST /api/admin/researcher-applications';

afterEach(() => {
  vi.useRealTimers();
});

async function openForm(
  routes: Record<string, FakeRoute> = {},
  options: Parameters<typeof userEvent.setup>[0] = {},
) {
  const api = installAccount('noprofile', routes);
  const view = renderRoute(REGISTER);
  // The first test also loads the page's lazy chunk.
  await screen.findByRole('heading', { level: 1, name: 'Researcher Registration' }, LOAD);
  return { ...api, ...view, user: userEvent.setup({ delay: null, ...options }) };
}

/** MUI adds ' *' to required labels; match the label text without it. */
const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}(\\s*\\*)?$`));
const submitButton = () => screen.getByRole('button', { name: 'Submit Application' });

type User = ReturnType<typeof userEvent.setup>;

/** Replaces a field's text in one input event, as pasting does (typing each key is slow). */
async function fill(user: User, label: string, value: string) {
  const field = input(label);
  await user.clear(field);
  if (value === '') return;
  if ((field as HTMLInputElement).type === 'date') {
    await user.type(field, value);
    return;
  }
  await user.click(field);
  await user.paste(value);
}

async function fillRequired(user: User) {
  await fill(user, 'First Name', 'Ada');
  await fill(user, 'Last Name', 'Lovelace');
  await fill(user, 'Date of Birth', '1990-05-17');
  await fill(user, 'Phone Number', '5551234567');
  await fill(user, 'Institution/University', 'Analytical Engine Institute');
  await fill(user, 'Position/Role', 'Professor');
}

function pdf(name: string, bytes = 2048): File {
  return new File([new Uint8Array(bytes)], name, { type: 'application/pdf' });
}

/** A file that reports a size without holding it in memory. */
function sized(file: File, size: number): File {
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

// Filling a whole MUI form in jsdom takes a few seconds on a busy machine.
describe('Researcher Registration form', { timeout: 20_000 }, () => {
  it('shows every field; the e-mail is the account’s and locked; names come from the account', async () => {
    await openForm();
    for (const label of [
      'First Name',
      'Last Name',
      'Email Address',
      'Date of Birth',
      'Phone Number',
      'Institution/University',
      'Position/Role',
      'Department',
      'Research Area',
      'Description',
    ]) {
      expect(input(label)).toBeInTheDocument();
    }
    expect(input('Email Address')).toHaveValue('ada@example.test');
    expect(input('Email Address')).toBeDisabled();
    expect(input('First Name')).toHaveValue('Ada');
    expect(input('Last Name')).toHaveValue('Lovelace King');
    expect(input('Date of Birth')).toHaveAttribute('type', 'date');
    expect(input('Description').tagName).toBe('TEXTAREA');
    expect(screen.getByLabelText('Verification documents')).toHaveAttribute('type', 'file');
  });

  it('keeps Submit disabled until every required field has non-blank text', async () => {
    const { user } = await openForm();
    await user.clear(input('First Name'));
    await user.clear(input('Last Name'));
    expect(submitButton()).toBeDisabled();

    const steps: [string, string][] = [
      ['First Name', 'Ada'],
      ['Last Name', 'Lovelace'],
      ['Date of Birth', '1990-05-17'],
      ['Phone Number', '5551234567'],
      ['Institution/University', 'Analytical Engine Institute'],
    ];
    for (const [label, value] of steps) {
      await fill(user, label, value);
      expect(submitButton()).toBeDisabled();
    }
    // Blank text does not count.
    await fill(user, 'Position/Role', '   ');
    expect(submitButton()).toBeDisabled();
    await fill(user, 'Position/Role', 'Professor');
    expect(submitButton()).toBeEnabled();
    // Optional fields are not needed; clearing a required one disables it again.
    await user.clear(input('Institution/University'));
    expect(submitButton()).toBeDisabled();
  });

  it('formats the phone number as it is typed', async () => {
    const { user } = await openForm();
    const phone = input('Phone Number');
    await user.type(phone, '555');
    expect(phone).toHaveValue('(555)');
    await user.type(phone, '12');
    expect(phone).toHaveValue('(555) 12');
    await user.type(phone, '3a4-567');
    expect(phone).toHaveValue('(555) 123-4567');
    // At most 10 digits.
    await user.type(phone, '89');
    expect(phone).toHaveValue('(555) 123-4567');
  });

  it('refuses an incomplete phone number before calling the server', async () => {
    const { user, calls } = await openForm();
    await fillRequired(user);
    await fill(user, 'Phone Number', '55512');
    await user.click(submitButton());
    expect(await screen.findByText('Phone number must have 10 digits')).toBeInTheDocument();
    expect(
      calls.some((c) => c.method === 'POST' && c.path.includes('researcher-applications')),
    ).toBe(false);
  });

  describe('verification documents', () => {
    it('lists chosen files with name and size, and removes them', async () => {
      const { user } = await openForm();
      const picker = screen.getByLabelText('Verification documents');
      expect(picker).toHaveAttribute('accept', expect.stringContaining('application/pdf'));
      expect(picker).toHaveAttribute('multiple');
      await user.upload(picker, [
        sized(pdf('appointment-letter.pdf'), 1.5 * 1024 * 1024),
        new File([new Uint8Array(10)], 'badge.png', { type: 'image/png' }),
      ]);
      const list = screen.getByRole('list', { name: 'Verification Documents' });
      expect(within(list).getByText('appointment-letter.pdf')).toBeInTheDocument();
      expect(within(list).getByText('1.50 MB')).toBeInTheDocument();
      expect(within(list).getByText('badge.png')).toBeInTheDocument();

      await user.click(screen.getByRole('button', { name: 'Remove appointment-letter.pdf' }));
      expect(screen.queryByText('appointment-letter.pdf')).toBeNull();
      expect(screen.getByText('badge.png')).toBeInTheDocument();
    });

    it('opens the picker from a real button, the one tab stop of the picker', async () => {
      const { user } = await openForm();
      const picker = screen.getByLabelText('Verification documents') as HTMLInputElement;
      const opened = vi.spyOn(picker, 'click');
      const choose = screen.getByRole('button', { name: 'Choose Files' });
      expect(choose.tagName).toBe('BUTTON');
      await user.click(choose);
      expect(opened).toHaveBeenCalledOnce();
      // Hidden: out of the tab order and the accessibility tree; the button stands for it.
      expect(picker).not.toBeVisible();
    });

    it(`accepts at most ${RESEARCHER_DOCUMENTS.maxFiles} files`, async () => {
      const { user } = await openForm();
      const files = Array.from({ length: 6 }, (_, i) => pdf(`document-${i + 1}.pdf`));
      await user.upload(screen.getByLabelText('Verification documents'), files);
      expect(screen.getByText('You can attach at most 5 documents.')).toBeInTheDocument();
      expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(5);
      expect(screen.queryByText('document-6.pdf')).toBeNull();
      // Full: the picker is off until a file is removed.
      expect(screen.getByLabelText('Verification documents')).toBeDisabled();
      await user.click(screen.getByRole('button', { name: 'Remove document-1.pdf' }));
      expect(screen.getByLabelText('Verification documents')).toBeEnabled();
    });

    it('refuses files over 10 MB and files of other types', async () => {
      const { user } = await openForm({}, { applyAccept: false });
      const picker = screen.getByLabelText('Verification documents');
      await user.upload(picker, sized(pdf('scan.pdf'), RESEARCHER_DOCUMENTS.maxFileBytes + 1));
      expect(screen.getByText('"scan.pdf" is larger than 10 MB.')).toBeInTheDocument();
      expect(screen.queryByRole('list')).toBeNull();

      await user.upload(picker, new File(['hello'], 'notes.txt', { type: 'text/plain' }));
      expect(screen.getByText('"notes.txt" is not a PDF, PNG or JPEG file.')).toBeInTheDocument();
      expect(screen.queryByRole('list')).toBeNull();

      // Exactly 10 MB is allowed.
      await user.upload(picker, sized(pdf('limit.pdf'), RESEARCHER_DOCUMENTS.maxFileBytes));
      expect(screen.getByText('limit.pdf')).toBeInTheDocument();
      expect(screen.getByText('10.00 MB')).toBeInTheDocument();
    });
  });

  it('submits JSON without documents, shows the success panel, then goes to the status page after 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let submitted = false;
    const { user, router, calls } = await openForm(
      {
        [SUBMIT]: () => {
          submitted = true;
          return { status: 201, body: { success: true, applicationId: 'app-1' } };
        },
        'GET /api/auth/profile': () => ({
          body: {
            success: true,
            researcher: makeProfile({ status: submitted ? 'pending' : 'noprofile' }),
          },
        }),
        'GET /api/auth/application-status': () => ({
          body: { success: true, application: submitted ? makeApplication() : null },
        }),
      },
      { advanceTimers: vi.advanceTimersByTime },
    );
    await fillRequired(user);
    await fill(user, 'Department', '  ');
    await fill(user, 'Research Area', 'Computing');
    await user.click(submitButton());

    expect(await screen.findByText(APPLICATION_MESSAGES.submitted)).toBeInTheDocument();
    expect(screen.getByText('ada@example.test', { selector: 'strong' })).toBeInTheDocument();
    const post = calls.find(
      (c) => c.method === 'POST' && c.path.endsWith('/researcher-applications'),
    );
    expect(post?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.test',
      dateOfBirth: '1990-05-17',
      // Typed as (555) 123-4567, sent as stored: E.164.
      phoneNumber: '+15551234567',
      institution: 'Analytical Engine Institute',
      position: 'Professor',
      researchArea: 'Computing',
    });
    expect(post?.authorization).toMatch(/^Bearer /);
    // The profile is read again, so navigation and guards know the application is pending.
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/api/auth/profile').length).toBeGreaterThan(1),
    );

    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(router.state.location.pathname).toBe(REGISTER);
    expect(screen.getByText(APPLICATION_MESSAGES.submitted)).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1_100));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe('/researcher/application-status'),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Application Under Review' }),
    ).toBeInTheDocument();
  });

  it('sends multipart/form-data with the documents when files are attached', async () => {
    const { user } = await openForm({
      [SUBMIT]: { status: 201, body: { success: true, applicationId: 'app-1' } },
    });
    await fillRequired(user);
    await user.upload(screen.getByLabelText('Verification documents'), [
      pdf('letter.pdf'),
      new File([new Uint8Array(4)], 'badge.jpg', { type: 'image/jpeg' }),
    ]);
    await user.click(submitButton());
    await screen.findByText(APPLICATION_MESSAGES.submitted);

    const fetchMock = vi.mocked(fetch);
    const init = fetchMock.mock.calls.find(([url]) =>
      String(url).endsWith('/api/admin/researcher-applications'),
    )?.[1];
    expect(init?.body).toBeInstanceOf(FormData);
    const form = init?.body as FormData;
    expect(form.get('firstName')).toBe('Ada');
    expect(form.get('email')).toBe('ada@example.test');
    expect(form.get('phoneNumber')).toBe('+15551234567');
    expect(form.has('department')).toBe(false);
    expect(form.getAll('documents').map((file) => (file as File).name)).toEqual([
      'letter.pdf',
      'badge.jpg',
    ]);
    // The browser sets the multipart boundary itself.
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull();
  });

  it('shows the server’s field errors next to their fields', async () => {
    const { user } = await openForm({
      [SUBMIT]: {
        status: 400,
        body: {
          ...failure(
            'Institution is too long (max 200 characters) (institution)',
            'VALIDATION_ERROR',
          ),
          details: {
            fields: [
              { field: 'institution', message: 'Institution is too long (max 200 characters)' },
              { field: 'position', message: 'Position is required' },
            ],
          },
        },
      },
    });
    await fillRequired(user);
    await user.click(submitButton());

    expect(await screen.findByText('Please correct the highlighted fields.')).toBeInTheDocument();
    const institution = input('Institution/University');
    expect(institution).toHaveAttribute('aria-invalid', 'true');
    expect(institution).toHaveAccessibleDescription('Institution is too long (max 200 characters)');
    expect(input('Position/Role')).toHaveAccessibleDescription('Position is required');
    // Editing the field clears its error.
    await user.type(institution, 'x');
    expect(institution).toHaveAttribute('aria-invalid', 'false');
  });

  it('shows the server message when the server refuses', async () => {
    const { user } = await openForm({
      [SUBMIT]: {
        status: 409,
        body: failure(
          'You already have an application under review. Please wait for the decision before applying again.',
          'APPLICATION_PENDING',
        ),
      },
    });
    await fillRequired(user);
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You already have an application under review. Please wait for the decision before applying again.',
    );
    expect(submitButton()).toBeEnabled();
  });

  it(`falls back to '${APPLICATION_MESSAGES.submitFailed}' when no reply comes`, async () => {
    const { user } = await openForm({
      [SUBMIT]: () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await fillRequired(user);
    await user.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(APPLICATION_MESSAGES.submitFailed);
  });

  it('disables Submit while the application is being sent', async () => {
    let release: () => void = () => {};
    const { user } = await openForm({
      [SUBMIT]: () =>
        new Promise((resolve) => {
          release = () => resolve({ status: 201, body: { success: true, applicationId: 'a' } });
        }),
    });
    await fillRequired(user);
    await user.click(submitButton());
    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect(busy).toBeDisabled();
    expect(input('First Name')).toBeDisabled();
    await act(async () => release());
    expect(await screen.findByText(APPLICATION_MESSAGES.submitted)).toBeInTheDocument();
  });

  it.each<[AccountKind, string]>([
    ['pending', '/researcher/application-status'],
    ['approved', '/researcher/dashboard'],
    ['master', '/master/dashboard'],
  ])('on entry sends a %s account to %s', async (kind, target) => {
    installAccount(kind, {
      'GET /api/auth/application-status': {
        body: { success: true, application: kind === 'pending' ? makeApplication() : null },
      },
    });
    const { router } = renderRoute(REGISTER);
    await waitFor(() => expect(router.state.location.pathname).toBe(target), { timeout: 3000 });
  });

  const PREVIOUS = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    dateOfBirth: '1985-12-10',
    phoneNumber: '+16175550199',
    institution: 'Analytical Engine Institute',
    position: 'Professor',
    department: 'Mathematics',
    researchArea: 'Sleep and activity',
    description: 'Nightly sleep stages of shift workers.',
  };

  /** Every field of the form holds what the last application said; it can be sent again at once. */
  function expectPrefilled() {
    expect(input('First Name')).toHaveValue('Ada');
    expect(input('Last Name')).toHaveValue('Lovelace');
    expect(input('Date of Birth')).toHaveValue('1985-12-10');
    expect(input('Phone Number')).toHaveValue('(617) 555-0199');
    expect(input('Institution/University')).toHaveValue('Analytical Engine Institute');
    expect(input('Position/Role')).toHaveValue('Professor');
    expect(input('Department')).toHaveValue('Mathematics');
    expect(input('Research Area')).toHaveValue('Sleep and activity');
    expect(input('Description')).toHaveValue('Nightly sleep stages of shift workers.');
    expect(submitButton()).toBeEnabled();
  }

  it('after a master reset (status noprofile again) starts from every field of the archived application', async () => {
    const { calls } = installAccount('noprofile', {
      'GET /api/auth/previous-application': { body: { success: true, application: PREVIOUS } },
    });
    renderRoute(REGISTER);
    await screen.findByRole('heading', { level: 1, name: 'Researcher Registration' }, LOAD);
    expectPrefilled();
    expect(calls.find((c) => c.path === '/api/auth/previous-application')?.authorization).toMatch(
      /^Bearer /,
    );
  });

  it('lets a rejected researcher apply again, with every field of the last application filled in', async () => {
    installAccount('rejected', {
      'GET /api/auth/profile': {
        body: {
          success: true,
          researcher: makeProfile({
            status: 'rejected',
            firstName: 'Ada',
            lastName: 'Lovelace',
            institution: 'Analytical Engine Institute',
            position: 'Professor',
            department: 'Mathematics',
          }),
        },
      },
      // The page asks for the latest rejected application (before: the current status).
      'GET /api/auth/previous-application': { body: { success: true, application: PREVIOUS } },
    });
    renderRoute(REGISTER);
    await screen.findByRole('heading', { level: 1, name: 'Researcher Registration' }, LOAD);
    // Everything required is there: the applicant can send it again at once.
    expectPrefilled();
  });
});
