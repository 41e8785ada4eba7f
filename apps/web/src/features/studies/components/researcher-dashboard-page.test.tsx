import { STUDY_MESSAGES, STUDY_PAGE_SIZE, type Study } from '@research/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type FakeReply, type FakeRoute, failure, installAccount } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';
import { dialog, makeStudy as makeStudyFixture, notification } from '../../../test/study-fixtures';

const OWNED = 'GET /api/auth/researcher-studies';
const COLLAB = 'GET /api/auth/collaborative-studies';

let nextId = 1;
function makeStudy(overrides: Partial<Study> = {}): Study {
  return makeStudyFixture({
    id: `00000000-0000-4000-8000-${String(nextId++).padStart(12, '0')}`,
    description: 'Nightly sleep stages and daily steps.',
    participantCount: 3,
    ...overrides,
  });
}

function list(data: Study[], totalCount = data.length): FakeRoute {
  return { body: { success: true, data, totalCount } };
}

/**
 * The study page reads its study first; tests that only follow the navigation there answer as
 * for a study deleted meanwhile (the page then asks nothing more), not with the fake's generic
 * 404, which that call never answers.
 */
function studyPageGone(study: Study): Record<string, FakeRoute> {
  return {
    [`GET /api/studies/${study.id}`]: {
      status: 404,
      body: failure(STUDY_MESSAGES.notFound, 'STUDY_NOT_FOUND'),
    },
  };
}

async function openDashboard(
  routes: Record<string, FakeRoute> = {},
  path = '/researcher/dashboard',
) {
  const api = installAccount('approved', { [OWNED]: list([]), [COLLAB]: list([]), ...routes });
  const view = renderRoute(path);
  // The first test also waits for the page's lazy chunk.
  await screen.findByText(/^Welcome back/, undefined, { timeout: 10_000 });
  await waitFor(() => expect(screen.queryByText('Loading your studies...')).toBeNull());
  return { ...api, ...view, user: userEvent.setup({ delay: null }) };
}

/** Validation is shown in the form only, never again in a 'Validation Error' modal. */
const noValidationModal = () =>
  screen.queryByRole('dialog', { name: 'Validation Error' }) === null &&
  screen.queryByRole('alertdialog', { name: 'Validation Error' }) === null;

describe('Researcher dashboard', { timeout: 30_000 }, () => {
  it('welcomes by display name and counts both lists from totalCount', async () => {
    await openDashboard({
      [OWNED]: list([makeStudy(), makeStudy({ name: 'Second' })], 30),
      [COLLAB]: list([makeStudy({ role: 'collab' })], 1),
    });
    expect(
      screen.getByRole('heading', { level: 1, name: 'Researcher Dashboard' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Welcome back, Ada Lovelace King')).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Your Studies (30)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Collaborative Studies (1)' })).toBeInTheDocument();
  });

  it('shows "Loading your studies..." while the lists load', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    installAccount('approved', {
      [OWNED]: async () => {
        await gate;
        return { body: { success: true, data: [], totalCount: 0 } };
      },
      [COLLAB]: list([]),
    });
    renderRoute('/researcher/dashboard');
    expect(
      await screen.findByText('Loading your studies...', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    // No count until the list answers: '(0)' would be a wrong number.
    expect(screen.getByRole('tab', { name: 'Your Studies' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('No Studies Yet')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Your Studies (0)' })).toBeInTheDocument();
  });

  it('empty states and header buttons per tab', async () => {
    const { user } = await openDashboard();
    expect(screen.getByText('No Studies Yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Your First Study' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Study' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Study' })).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Collaborative Studies (0)' }));
    expect(await screen.findByText('No Collaborative Studies Yet')).toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: 'Join Your First Collaborative Study' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Study' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Study' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Join Your First Collaborative Study' }));
    expect(await dialog('Join Study as Collaborator')).toBeInTheDocument();
  });

  it('owned cards: name, participants, code, green active chip, description, date, edit and delete', async () => {
    const study = makeStudy({ description: null, participantCount: 1 });
    const { user, router } = await openDashboard({
      [OWNED]: list([study]),
      ...studyPageGone(study),
    });
    const card = screen.getByRole('article', { name: study.name });
    expect(within(card).getByText('1 participant')).toBeInTheDocument();
    expect(within(card).getByText('ABC234')).toBeInTheDocument();
    expect(within(card).getByText('No description provided')).toBeInTheDocument();
    expect(within(card).getByText('Created 3/5/2026')).toBeInTheDocument();
    expect(within(card).getByText('active').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorSuccess',
    );
    expect(within(card).queryByText('Collaborator')).toBeNull();
    expect(within(card).getByRole('button', { name: 'Edit Study' })).toBeInTheDocument();

    await user.click(within(card).getByRole('button', { name: `More actions for ${study.name}` }));
    expect(await screen.findByRole('menuitem', { name: 'Delete Study' })).toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(within(card).getByRole('button', { name: 'View Study' }));
    // The study page is a lazy chunk; the navigation commits once it has loaded.
    await waitFor(
      () => expect(router.state.location.pathname).toBe(`/researcher/study/${study.id}`),
      { timeout: 10_000 },
    );
  });

  it('a card click opens the study; a non-active status chip is neutral', async () => {
    const study = makeStudy({ status: 'paused' });
    const { user, router } = await openDashboard({
      [OWNED]: list([study]),
      ...studyPageGone(study),
    });
    const card = screen.getByRole('article', { name: study.name });
    expect(within(card).getByText('paused').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorDefault',
    );
    await user.click(within(card).getByText('Nightly sleep stages and daily steps.'));
    // The study page is a lazy chunk; the navigation commits once it has loaded.
    await waitFor(
      () => expect(router.state.location.pathname).toBe(`/researcher/study/${study.id}`),
      { timeout: 10_000 },
    );
  });

  it('collaborative cards carry the Collaborator chip and no edit or delete', async () => {
    const study = makeStudy({ role: 'collab', name: 'Shared Study', ownerName: 'Grace Hopper' });
    const { user } = await openDashboard({ [COLLAB]: list([study]) });
    await user.click(screen.getByRole('tab', { name: 'Collaborative Studies (1)' }));
    const card = await screen.findByRole('article', { name: 'Shared Study' });
    expect(within(card).getByText('Collaborator')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'View Study' })).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Edit Study' })).toBeNull();
    expect(within(card).queryByRole('button', { name: /More actions/ })).toBeNull();
  });

  it('loads more cards on demand, 24 at a time, asking for the next offset', async () => {
    // 25 studies, served the way the server pages them: by the request's limit and offset.
    const all = Array.from({ length: STUDY_PAGE_SIZE + 1 }, (_, i) =>
      makeStudy({ name: i === STUDY_PAGE_SIZE ? 'Last one' : `S${i}` }),
    );
    const { user, calls } = await openDashboard({
      [OWNED]: ({ query }) => {
        const limit = Number(query.get('limit'));
        const offset = Number(query.get('offset'));
        return list(all.slice(offset, offset + limit), all.length) as FakeReply;
      },
    });
    expect(screen.getAllByRole('article')).toHaveLength(24);
    expect(screen.queryByRole('article', { name: 'Last one' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Load more studies' }));
    expect(await screen.findByRole('article', { name: 'Last one' })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(25);
    expect(screen.queryByRole('button', { name: 'Load more studies' })).toBeNull();
    expect(
      calls.filter((c) => c.path === '/api/auth/researcher-studies').map((c) => c.search),
    ).toEqual(['?limit=24&offset=0', '?limit=24&offset=24']);
  });

  it("a failed load shows 'Failed to Load Studies' with the server's message", async () => {
    await openDashboard({
      [OWNED]: { status: 403, body: failure('Researcher approval required', 'NOT_APPROVED') },
    });
    const modal = await notification('Failed to Load Studies');
    expect(within(modal).getByText('Researcher approval required')).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Got it' })).toBeInTheDocument();
  });

  it("copy failure: 'Copy Failed'", async () => {
    const { user } = await openDashboard({ [OWNED]: list([makeStudy()]) });
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) },
    });
    await user.click(screen.getByRole('button', { name: 'Copy study code' }));
    const modal = await notification('Copy Failed');
    expect(within(modal).getByText('Failed to copy study code to clipboard')).toBeInTheDocument();
  });

  it('copies the study code to the clipboard', async () => {
    const { user } = await openDashboard({ [OWNED]: list([makeStudy()]) });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    await user.click(screen.getByRole('button', { name: 'Copy study code' }));
    expect(writeText).toHaveBeenCalledWith('ABC234');
    expect(await screen.findByText('Study code has been copied to clipboard')).toBeInTheDocument();
  });

  describe('create', () => {
    it('keeps Create disabled while the study password is shorter than 6 characters', async () => {
      const { user } = await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const form = await dialog('Create New Study');
      const create = within(form).getByRole('button', { name: 'Create Study' });
      await user.type(within(form).getByLabelText(/Study Name/), 'Sleep');
      await user.type(within(form).getByLabelText('Study Password'), 'abc');
      expect(create).toBeDisabled();
      expect(within(form).getByText('Password must be at least 6 characters')).toBeInTheDocument();
      await user.type(within(form).getByLabelText('Study Password'), 'def');
      expect(create).toBeEnabled();
    });

    it('an empty name is shown once, under the field, and nothing is sent', async () => {
      const { user, calls } = await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const form = await dialog('Create New Study');
      await user.click(within(form).getByRole('button', { name: 'Create Study' }));
      expect(await within(form).findByText('Study name is required')).toBeInTheDocument();
      expect(within(form).getByLabelText(/Study Name/)).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getAllByText('Study name is required')).toHaveLength(1);
      expect(noValidationModal()).toBe(true);
      expect(calls.some((c) => c.path === '/api/auth/create-study')).toBe(false);
    });

    it('an invalid collaborator address shows under the collaborators field', async () => {
      const { user, calls } = await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const form = await dialog('Create New Study');
      await user.type(within(form).getByLabelText(/Study Name/), 'Sleep');
      await user.type(within(form).getByLabelText('Collaborator Emails'), 'not-an-address');
      await user.click(within(form).getByRole('button', { name: 'Create Study' }));
      await waitFor(() =>
        expect(within(form).getByLabelText('Collaborator Emails')).toHaveAttribute(
          'aria-invalid',
          'true',
        ),
      );
      expect(noValidationModal()).toBe(true);
      expect(calls.some((c) => c.path === '/api/auth/create-study')).toBe(false);
    });

    it('sends the payload (collaborators parsed, empty optionals absent), then reports the code', async () => {
      let ownedList: Study[] = [];
      const { user, calls } = await openDashboard({
        [OWNED]: () => list(ownedList) as { body: unknown },
        'POST /api/auth/create-study': () => {
          const study = makeStudy({ name: 'Sleep', studyCode: 'XYZ789', description: null });
          ownedList = [study];
          return { status: 201, body: { success: true, study, message: 'Study created' } };
        },
      });
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const form = await dialog('Create New Study');
      await user.type(within(form).getByLabelText(/Study Name/), '  Sleep ');
      await user.type(within(form).getByLabelText('Study Password'), 'secret1');
      await user.type(
        within(form).getByLabelText('Collaborator Emails'),
        ' bob@example.test, ,carol@example.test ,',
      );
      await user.click(
        within(form).getByRole('radio', { name: 'Remove it from the study’s dataset' }),
      );
      await user.click(
        within(form).getByRole('combobox', { name: 'Days without a sync before a reminder' }),
      );
      await user.click(await screen.findByRole('option', { name: '3' }));
      await user.click(within(form).getByRole('button', { name: 'Create Study' }));

      const modal = await notification('Study Created');
      expect(within(modal).getByText(/XYZ789/)).toBeInTheDocument();
      const sent = calls.find((c) => c.path === '/api/auth/create-study');
      expect(sent?.authorization).toMatch(/^Bearer /);
      expect(sent?.body).toEqual({
        name: 'Sleep',
        password: 'secret1',
        collaborators: ['bob@example.test', 'carol@example.test'],
        settings: {
          allowSelfEnrollment: false,
          requireVerification: true,
          dataRetentionDays: 365,
          removeDataDeletedAtSource: true,
          validDayMinHours: 10,
          riskNoSyncDays: 2,
          reminderNoSyncDays: 3,
          consentRequired: true,
          withdrawalData: 'keep',
        },
      });
      await user.click(within(modal).getByRole('button', { name: 'Got it' }));
      expect(await screen.findByRole('article', { name: 'Sleep' })).toBeInTheDocument();
      expect(await screen.findByRole('tab', { name: 'Your Studies (1)' })).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Create New Study' })).toBeNull();
      // The form was cleared.
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const again = await dialog('Create New Study');
      expect(within(again).getByLabelText(/Study Name/)).toHaveValue('');
      expect(
        within(again).getByRole('radio', {
          name: 'Keep the study’s copy, marked as deleted at the source',
        }),
      ).toBeChecked();
    });

    it("shows the busy text, then 'Failed to Create Study' with the server message", async () => {
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const { user } = await openDashboard({
        'POST /api/auth/create-study': async () => {
          await gate;
          return { status: 400, body: failure('Study name is too long', 'VALIDATION_ERROR') };
        },
      });
      await user.click(screen.getByRole('button', { name: 'Create Study' }));
      const form = await dialog('Create New Study');
      await user.type(within(form).getByLabelText(/Study Name/), 'Sleep');
      await user.click(within(form).getByRole('button', { name: 'Create Study' }));
      expect(
        await within(form).findByRole('button', {
          name: 'Please wait 30 seconds for study to be created...',
        }),
      ).toBeDisabled();
      release();
      const modal = await notification('Failed to Create Study');
      expect(within(modal).getByText('Study name is too long')).toBeInTheDocument();
    });
  });

  describe('edit and change password', () => {
    const study = makeStudy({ name: 'Sleep' });

    async function openEdit(routes: Record<string, FakeRoute> = {}) {
      const opened = await openDashboard({ [OWNED]: list([study]), ...routes });
      await opened.user.click(screen.getByRole('button', { name: 'Edit Study' }));
      return { ...opened, form: await dialog('Edit Study') };
    }

    it("updates name, description and duration: 'Study Updated'", async () => {
      const { user, form, calls } = await openEdit({
        [`PUT /api/studies/${study.id}`]: {
          body: { success: true, study: { ...study, name: 'Sleep 2' } },
        },
      });
      const name = within(form).getByLabelText(/Study Name/);
      expect(name).toHaveValue('Sleep');
      await user.clear(name);
      await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
      expect(await within(form).findByText('Study name is required')).toBeInTheDocument();
      expect(noValidationModal()).toBe(true);
      expect(calls.some((c) => c.method === 'PUT')).toBe(false);
      await user.type(name, 'Sleep 2');
      await user.click(within(form).getByRole('button', { name: 'Save Changes' }));
      expect(await notification('Study Updated')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        name: 'Sleep 2',
        description: 'Nightly sleep stages and daily steps.',
        duration: '4 weeks',
      });
    });

    it.each([
      [{}, 'All password fields are required'],
      [
        { current: 'old-pass', next: 'new-pass1', confirm: 'new-pass2' },
        'New passwords do not match',
      ],
      [
        { current: 'old-pass', next: 'abc', confirm: 'abc' },
        'New password must be at least 6 characters long',
      ],
    ])('change password %o → %s', async (values, message) => {
      const { user, form, calls } = await openEdit();
      await user.click(within(form).getByRole('button', { name: 'Change Password' }));
      const pw = await dialog('Change Study Password');
      const v = values as { current?: string; next?: string; confirm?: string };
      if (v.current) await user.type(within(pw).getByLabelText('Current Password'), v.current);
      if (v.next) await user.type(within(pw).getByLabelText('New Password'), v.next);
      if (v.confirm) await user.type(within(pw).getByLabelText('Confirm New Password'), v.confirm);
      await user.click(within(pw).getByRole('button', { name: 'Change Password' }));
      expect(await within(pw).findByText(message)).toBeInTheDocument();
      expect(screen.getAllByText(message)).toHaveLength(1);
      expect(noValidationModal()).toBe(true);
      expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    });

    it("wrong current password: 'Invalid Password' / 'Current password is incorrect', then success", async () => {
      let attempts = 0;
      const { user, form, calls } = await openEdit({
        [`PUT /api/studies/${study.id}`]: () => {
          attempts += 1;
          return attempts === 1
            ? {
                status: 400,
                body: failure('Current password is incorrect', 'INVALID_CURRENT_PASSWORD'),
              }
            : { body: { success: true, study } };
        },
      });
      await user.click(within(form).getByRole('button', { name: 'Change Password' }));
      const pw = await dialog('Change Study Password');
      await user.type(within(pw).getByLabelText('Current Password'), 'not-it');
      await user.type(within(pw).getByLabelText('New Password'), 'new-secret');
      await user.type(within(pw).getByLabelText('Confirm New Password'), 'new-secret');
      await user.click(within(pw).getByRole('button', { name: 'Change Password' }));
      const modal = await notification('Invalid Password');
      expect(within(modal).getByText('Current password is incorrect')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        password: 'new-secret',
        currentPassword: 'not-it',
      });
      await user.click(within(modal).getByRole('button', { name: 'Got it' }));
      await user.click(await within(pw).findByRole('button', { name: 'Change Password' }));
      expect(await notification('Password Changed')).toBeInTheDocument();
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: 'Change Study Password' })).toBeNull(),
      );
    });

    it('a study without a password asks only for the new one and sends it alone', async () => {
      const open = makeStudy({ name: 'Open', hasPassword: false });
      const { user, calls } = await openDashboard({
        [OWNED]: list([open]),
        [`PUT /api/studies/${open.id}`]: {
          body: { success: true, study: { ...open, hasPassword: true, password: 'first-pass' } },
        },
      });
      await user.click(screen.getByRole('button', { name: 'Edit Study' }));
      await user.click(
        within(await dialog('Edit Study')).getByRole('button', { name: 'Change Password' }),
      );
      const pw = await dialog('Change Study Password');
      expect(within(pw).queryByLabelText('Current Password')).toBeNull();
      expect(within(pw).getByText(/"Open" has no password yet/)).toBeInTheDocument();
      await user.click(within(pw).getByRole('button', { name: 'Set Password' }));
      expect(await within(pw).findByText('All password fields are required')).toBeInTheDocument();
      expect(within(pw).getByLabelText('New Password')).toHaveAttribute('aria-invalid', 'true');
      expect(calls.some((c) => c.method === 'PUT')).toBe(false);

      await user.type(within(pw).getByLabelText('New Password'), 'first-pass');
      await user.type(within(pw).getByLabelText('Confirm New Password'), 'first-pass');
      await user.click(within(pw).getByRole('button', { name: 'Set Password' }));
      expect(await notification('Password Changed')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ password: 'first-pass' });
    });

    it("a refused change is 'Failed to Change Password'", async () => {
      const { user, form } = await openEdit({
        [`PUT /api/studies/${study.id}`]: {
          status: 403,
          body: failure('Only the study owner can do this.', 'OWNER_ONLY'),
        },
      });
      await user.click(within(form).getByRole('button', { name: 'Change Password' }));
      const pw = await dialog('Change Study Password');
      await user.type(within(pw).getByLabelText('Current Password'), 'old-secret');
      await user.type(within(pw).getByLabelText('New Password'), 'new-secret');
      await user.type(within(pw).getByLabelText('Confirm New Password'), 'new-secret');
      await user.click(within(pw).getByRole('button', { name: 'Change Password' }));
      const modal = await notification('Failed to Change Password');
      expect(within(modal).getByText('Only the study owner can do this.')).toBeInTheDocument();
    });
  });

  it("delete asks first, then reports 'Study Deleted' and reloads", async () => {
    const study = makeStudy({ name: 'Doomed' });
    let ownedList = [study];
    const { user, calls } = await openDashboard({
      [OWNED]: () => list(ownedList) as { body: unknown },
      [`DELETE /api/auth/delete-study/${study.id}`]: () => {
        ownedList = [];
        return { body: { success: true } };
      },
    });
    await user.click(screen.getByRole('button', { name: 'More actions for Doomed' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Study' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Study?' });
    expect(screen.queryByRole('menuitem', { name: 'Delete Study' })).toBeNull();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const modal = await notification('Study Deleted');
    expect(within(modal).getByText('"Doomed" has been deleted.')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'Got it' }));
    expect(await screen.findByText('No Studies Yet')).toBeInTheDocument();
    expect(await screen.findByRole('tab', { name: 'Your Studies (0)' })).toBeInTheDocument();
  });

  it("a failed delete is 'Failed to Delete Study'", async () => {
    const study = makeStudy({ name: 'Kept' });
    const { user } = await openDashboard({
      [OWNED]: list([study]),
      [`DELETE /api/auth/delete-study/${study.id}`]: {
        status: 403,
        body: failure('Only the study owner can do this.', 'OWNER_ONLY'),
      },
    });
    await user.click(screen.getByRole('button', { name: 'More actions for Kept' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete Study' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Study?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await notification('Failed to Delete Study')).toBeInTheDocument();
  });

  describe('join', () => {
    it('opens prefilled from ?code=&password= and removes them from the address', async () => {
      const { router } = await openDashboard(
        {},
        '/researcher/dashboard?code=abc234xyz&password=hr-secret',
      );
      const form = await dialog('Join Study as Collaborator');
      expect(within(form).getByLabelText('Study Code')).toHaveValue('ABC234');
      expect(within(form).getByLabelText('Study Password')).toHaveValue('hr-secret');
      await waitFor(() => expect(router.state.location.search).toBe(''));
      expect(router.state.location.pathname).toBe('/researcher/dashboard');
    });

    it('upper-cases the code and keeps at most 6 characters', async () => {
      const { user } = await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Join Study' }));
      const form = await dialog('Join Study as Collaborator');
      await user.type(within(form).getByLabelText('Study Code'), 'ab c2345678');
      expect(within(form).getByLabelText('Study Code')).toHaveValue('ABC234');
    });

    it('both fields are required: shown once, under the empty field', async () => {
      const { user, calls } = await openDashboard();
      await user.click(screen.getByRole('button', { name: 'Join Study' }));
      const form = await dialog('Join Study as Collaborator');
      await user.type(within(form).getByLabelText('Study Code'), 'ABC234');
      await user.click(within(form).getByRole('button', { name: 'Join Study' }));
      expect(
        await within(form).findByText('Please enter both study code and password'),
      ).toBeInTheDocument();
      expect(within(form).getByLabelText('Study Password')).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getAllByText('Please enter both study code and password')).toHaveLength(1);
      expect(noValidationModal()).toBe(true);
      expect(calls.some((c) => c.path === '/api/auth/join-study')).toBe(false);
    });

    it("a refused join is 'Failed to Join Study' / 'Invalid study code or password'", async () => {
      const { user } = await openDashboard({
        'POST /api/auth/join-study': {
          status: 400,
          body: failure('Invalid study code or password', 'INVALID_STUDY_CREDENTIALS'),
        },
      });
      await user.click(screen.getByRole('button', { name: 'Join Study' }));
      const form = await dialog('Join Study as Collaborator');
      await user.type(within(form).getByLabelText('Study Code'), 'ABC234');
      await user.type(within(form).getByLabelText('Study Password'), 'nope');
      await user.click(within(form).getByRole('button', { name: 'Join Study' }));
      const modal = await notification('Failed to Join Study');
      expect(within(modal).getByText('Invalid study code or password')).toBeInTheDocument();
    });

    it("joins: 'Study Joined' and the collaborative tab shows the card", async () => {
      const shared = makeStudy({ role: 'collab', name: 'Shared' });
      let collabList: Study[] = [];
      const { user, calls } = await openDashboard(
        {
          [COLLAB]: () => list(collabList) as { body: unknown },
          'POST /api/auth/join-study': () => {
            collabList = [shared];
            return {
              body: {
                success: true,
                study: shared,
                message: 'You have successfully joined the study as a collaborator',
              },
            };
          },
        },
        '/researcher/dashboard?code=ABC234&password=hr-secret',
      );
      const form = await dialog('Join Study as Collaborator');
      await user.click(within(form).getByRole('button', { name: 'Join Study' }));
      const modal = await notification('Study Joined');
      expect(
        within(modal).getByText('You have successfully joined the study as a collaborator'),
      ).toBeInTheDocument();
      expect(calls.find((c) => c.path === '/api/auth/join-study')?.body).toEqual({
        studyCode: 'ABC234',
        password: 'hr-secret',
      });
      await user.click(within(modal).getByRole('button', { name: 'Got it' }));
      expect(await screen.findByRole('tab', { name: 'Collaborative Studies (1)' })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      expect(await screen.findByRole('article', { name: 'Shared' })).toBeInTheDocument();
    });

    it('an existing member following the invitation link is told so and lands on the study', async () => {
      const shared = makeStudy({ role: 'collab', name: 'Shared' });
      const { user, router } = await openDashboard(
        {
          [COLLAB]: list([shared]),
          ...studyPageGone(shared),
          'POST /api/auth/join-study': {
            body: {
              success: true,
              study: shared,
              alreadyMember: true,
              message: 'You are already a collaborator on this study.',
            },
          },
        },
        '/researcher/dashboard?code=ABC234&password=old-secret',
      );
      const form = await dialog('Join Study as Collaborator');
      await user.click(within(form).getByRole('button', { name: 'Join Study' }));
      const modal = await notification('Already a Collaborator');
      expect(
        within(modal).getByText('You are already a collaborator on this study.'),
      ).toBeInTheDocument();
      expect(screen.queryByRole('dialog', { name: 'Study Joined' })).toBeNull();
      await user.click(within(modal).getByRole('button', { name: 'Got it' }));
      await waitFor(
        () => expect(router.state.location.pathname).toBe(`/researcher/study/${shared.id}`),
        { timeout: 10_000 },
      );
    });
  });
});
