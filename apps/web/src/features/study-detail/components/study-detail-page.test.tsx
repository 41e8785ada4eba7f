import type {
  EmailDetails,
  EmailRecord,
  ParticipantRow,
  PendingParticipant,
  Study,
  StudyMember,
  StudyStats,
} from '@research/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { type FakeRoute, failure, installAccount, makeProfile } from '../../../test/fake-api';
import { renderRoute } from '../../../test/render-route';
import { dialog, makeStudy, notification } from '../../../test/study-fixtures';

const STUDY_ID = '00000000-0000-4000-8000-000000000001';
const BASE = `/api/studies/${STUDY_ID}`;

const STATS: StudyStats = {
  participants: 1,
  pendingParticipants: 2,
  members: 2,
  emails: 1,
  authorizedParticipants: 1,
  atRisk: 0,
  lastEmailSentAt: null,
};

const PARTICIPANT: ParticipantRow = {
  id: 'row-1',
  participantId: 'P0123456789abcdef',
  firstName: 'Grace',
  lastName: 'Hopper',
  participantEmail: 'grace@example.test',
  phoneNumber: null,
  status: 'enrolled',
  enrolledAt: '2026-03-07T10:00:00.000Z',
  authorizationStatus: true,
  hasAccessToken: true,
  tokenExpiresAt: '2000-01-01T00:00:00.000Z',
  fitbitUserId: null,
  // As the server computes it: authorized, but the grant expired.
  displayStatus: 'inactive',
  lastDeviceSyncAt: null,
  latestDay: null,
};

const PENDING: PendingParticipant[] = [
  {
    id: 'pend-1',
    participantId: null,
    email: 'invited@example.test',
    phoneNumber: null,
    firstName: null,
    lastName: null,
    studyCode: 'ABC234',
    studyName: 'Sleep and Activity Study',
    status: 'invited',
    createdAt: '2026-03-08T10:00:00.000Z',
  },
  {
    id: 'pend-2',
    participantId: null,
    email: 'odd@example.test',
    phoneNumber: '+15551234567',
    firstName: null,
    lastName: null,
    studyCode: 'ABC234',
    studyName: 'Sleep and Activity Study',
    status: 'bounced',
    createdAt: '2026-03-09T10:00:00.000Z',
  },
];

const MEMBERS: StudyMember[] = [
  {
    id: 'u-1',
    name: 'Ada Lovelace King',
    email: 'ada@example.test',
    phone: null,
    status: 'active',
    joinedDate: '2026-03-05T10:00:00.000Z',
    role: 'main',
  },
  {
    id: 'u-2',
    name: 'Dorothy Hodgkin',
    email: 'dorothy@example.test',
    phone: '+15552013344',
    status: 'pending',
    joinedDate: null,
    role: 'collab',
  },
];

const EMAIL: EmailRecord = {
  id: 'mail-1',
  kind: 'invitation',
  emailSubject: 'Invitation to participate in Sleep and Activity Study',
  sentCount: 2,
  sentAt: '2026-03-08T14:05:00.000Z',
  deliveryStatus: { queued: 1, sent: 1, failed: 0 },
};

const EMAIL_DETAILS: EmailDetails = {
  ...EMAIL,
  emailBody: 'Hello,\n\nStudy code: ABC234',
  participants: [
    { participantEmail: 'a@example.test', status: 'sent' },
    { participantEmail: 'b@example.test', status: 'queued' },
  ],
};

function routes(study: Study = makeStudy()): Record<string, FakeRoute> {
  return {
    [`GET ${BASE}`]: { body: { success: true, study } },
    [`GET ${BASE}/stats`]: { body: { success: true, stats: STATS } },
    [`GET ${BASE}/participants`]: {
      body: { success: true, participants: [PARTICIPANT], totalCount: 1 },
    },
    [`GET ${BASE}/pending-participants`]: {
      body: { success: true, pendingParticipants: PENDING, totalCount: 2 },
    },
    [`GET ${BASE}/members`]: { body: { success: true, members: MEMBERS } },
    [`GET /api/email/history/${STUDY_ID}`]: {
      body: { success: true, emails: [EMAIL], totalCount: 1 },
    },
    [`GET /api/email/history/${STUDY_ID}/mail-1`]: {
      body: { success: true, email: EMAIL_DETAILS },
    },
  };
}

async function openStudy(extra: Record<string, FakeRoute> = {}, query = '', study = makeStudy()) {
  const api = installAccount('approved', { ...routes(study), ...extra });
  const view = renderRoute(`/researcher/study/${STUDY_ID}${query}`);
  await screen.findByRole('heading', { level: 1, name: study.name }, { timeout: 10_000 });
  return { ...api, ...view, user: userEvent.setup({ delay: null }) };
}

type User = ReturnType<typeof userEvent.setup>;

/** Invites a@example.test from the participants' mail dialog, up to the review step. */
async function reviewParticipantInvitation(user: User) {
  await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
  const compose = await dialog('Invite/Contact Participants');
  await user.type(within(compose).getByLabelText('Email 1'), 'a@example.test');
  await user.click(within(compose).getByRole('button', { name: 'Continue' }));
  return dialog('Review & Edit Invitation Email');
}

/** The participants' mail dialog, switched to Contact. */
async function openParticipantContact(user: User) {
  await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
  const compose = await dialog('Invite/Contact Participants');
  await user.click(within(compose).getByRole('button', { name: 'Contact' }));
  return compose;
}

/** Invites both members' addresses from the collaborators' mail dialog, up to the review step. */
async function reviewCollaboratorInvitation(user: User) {
  await user.click(screen.getByRole('button', { name: 'Invite/Contact Collaborator' }));
  const compose = await dialog('Invite/Contact Collaborators');
  await user.type(
    within(compose).getByLabelText(/^Collaborator Emails/),
    'ada@example.test, dorothy@example.test',
  );
  await user.click(within(compose).getByRole('button', { name: 'Continue' }));
  return dialog('Review & Edit Collaborator Invitation Email');
}

describe('Study detail', { timeout: 30_000 }, () => {
  it('says "Loading study details..." from the first moment, while the account is still checked', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    installAccount('approved', {
      ...routes(),
      'GET /api/auth/profile': async () => {
        await gate;
        return { body: { success: true, researcher: makeProfile({ status: 'approved' }) } };
      },
    });
    renderRoute(`/researcher/study/${STUDY_ID}`);
    expect(
      await screen.findByText('Loading study details...', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading...')).toBeNull();
    release();
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Sleep and Activity Study' },
      { timeout: 10_000 },
    );
  });

  it('shows the loading text, then the header with fallbacks and live tab counts', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    installAccount('approved', {
      ...routes(),
      [`GET ${BASE}/stats`]: async () => {
        await gate;
        return { body: { success: true, stats: STATS } };
      },
    });
    renderRoute(`/researcher/study/${STUDY_ID}`);
    expect(
      await screen.findByText('Loading study details...', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
    await screen.findByRole('heading', { level: 1, name: 'Sleep and Activity Study' });
    expect(screen.getByText('No description provided')).toBeInTheDocument();
    expect(screen.getByText('ABC234')).toBeInTheDocument();
    expect(screen.getByText('4 weeks')).toBeInTheDocument();
    expect(screen.getByText('active').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    for (const name of [
      'Edit',
      'Refresh',
      'Invite/Contact Participants',
      'Invite/Contact Collaborator',
      'Back to Dashboard',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    // While the counts load, no '(0)' is shown.
    expect(screen.getByRole('tab', { name: 'Participants' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /\(0\)/ })).toBeNull();
    release();
    expect(await screen.findByRole('tab', { name: 'Participants (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Pending Participants (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Study Members (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Email History (1)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Data export' })).toBeInTheDocument();
    // The last tab counts the participants at risk.
    expect(screen.getByRole('tab', { name: 'Adherence (0)' })).toBeInTheDocument();
  });

  it('says "Study not found" for a 404 and for a 403 alike', async () => {
    // What the server answers an unknown or deleted study, and a study of which one is no member.
    const refusals = [
      { status: 404, body: failure('Study not found', 'STUDY_NOT_FOUND') },
      { status: 403, body: failure('You are not a member of this study.', 'NOT_A_MEMBER') },
    ];
    for (const refusal of refusals) {
      installAccount('approved', { [`GET ${BASE}`]: refusal });
      const { unmount } = renderRoute(`/researcher/study/${STUDY_ID}`);
      expect(
        await screen.findByRole('heading', { name: 'Study not found' }, { timeout: 10_000 }),
      ).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).toBeNull();
      unmount();
    }
  });

  it('keeps the tab in the address; a hidden tab resets to the first', async () => {
    const { user, router } = await openStudy({}, '?tab=3');
    expect(screen.getByRole('tab', { name: /^Email History/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await user.click(screen.getByRole('tab', { name: /^Study Members/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=2'));
    await router.navigate(`/researcher/study/${STUDY_ID}?tab=7`);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByRole('tab', { name: /^Participants/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('participants: active/inactive status; the owner deletes after confirming', async () => {
    const { user, calls } = await openStudy({
      [`DELETE /api/participants/${PARTICIPANT.participantId}`]: {
        body: { success: true, message: 'Participant deleted' },
      },
    });
    const table = await screen.findByRole('table', { name: 'Participants' });
    const row = within(table).getByText('grace@example.test').closest('tr') as HTMLElement;
    // Authorized, but the token expired: inactive, in the warning colour.
    expect(within(row).getByText('inactive').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorWarning',
    );
    expect(within(row).getByText('3/7/2026')).toBeInTheDocument();
    expect(within(row).getByText('Not provided')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Delete Grace Hopper' }));
    const confirm = await dialog('Delete Participant');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    const done = await notification('Participant Deleted');
    expect(done).toHaveTextContent('Grace Hopper has been deleted from the study.');
    expect(
      calls.some((c) => c.method === 'DELETE' && c.path.endsWith(PARTICIPANT.participantId)),
    ).toBe(true);
  });

  it('a collaborator cannot delete participants and cannot edit the study', async () => {
    await openStudy({}, '', makeStudy({ role: 'collab' }));
    const table = await screen.findByRole('table', { name: 'Participants' });
    expect(within(table).getByRole('button', { name: 'Delete Grace Hopper' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
  });

  it('participant details: every field, documents in bytes or whole KB, download with the token', async () => {
    const documentPath = `/api/participants/${PARTICIPANT.participantId}/documents/doc-1`;
    const { user, calls } = await openStudy({
      [`GET /api/participants/${PARTICIPANT.participantId}/info`]: {
        body: {
          success: true,
          participant: {
            participantId: PARTICIPANT.participantId,
            firstName: 'Grace',
            lastName: 'Hopper',
            email: 'grace@example.test',
            phoneNumber: '5551234567',
            studyCode: 'ABC234',
            status: 'enrolled',
            enrolledAt: '2026-03-07T10:00:00.000Z',
            authorizedAt: '2026-03-08T10:00:00.000Z',
            additionalInfo: 'Night shifts on weekends',
            documents: [
              {
                id: 'doc-1',
                name: 'consent.pdf',
                type: 'application/pdf',
                size: 1_560,
                uploadedAt: '2026-03-09T10:00:00.000Z',
              },
              {
                id: 'doc-2',
                name: 'note.txt',
                type: 'text/plain',
                size: 45,
                uploadedAt: '2026-03-09T10:00:00.000Z',
              },
            ],
            informationCompleted: true,
            informationCompletedAt: '2026-03-09T10:00:00.000Z',
          },
        },
      },
      [`GET ${documentPath}`]: { body: { success: true } },
    });
    const createObjectURL = vi.fn(() => 'blob:document');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(`${this.download} ${this.href}`);
    });
    const table = await screen.findByRole('table', { name: 'Participants' });
    await user.click(within(table).getByRole('button', { name: 'View details of Grace Hopper' }));
    const details = await dialog('Participant Details');
    expect(await within(details).findByText('Night shifts on weekends')).toBeInTheDocument();
    for (const text of ['P0123456789abcdef', 'ABC234', 'Grace', 'Hopper', 'grace@example.test']) {
      expect(within(details).getAllByText(text).length).toBeGreaterThan(0);
    }
    expect(within(details).getByText('enrolled').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorSuccess',
    );
    expect(within(details).getByText('Completed')).toBeInTheDocument();
    // The participant's charts are a page of their own.
    expect(within(details).getByRole('link', { name: 'Open charts' })).toHaveAttribute(
      'href',
      `/researcher/study/${STUDY_ID}/participant/P0123456789abcdef`,
    );
    // 1,560 bytes is 1.52 KiB: shown rounded, as 2 KB, with the en-US short date.
    expect(within(details).getByText('application/pdf · 2 KB · 3/9/2026')).toBeInTheDocument();
    // Under 1 KB the size is in bytes, not rounded up to a kilobyte.
    expect(within(details).getByText('text/plain · 45 bytes · 3/9/2026')).toBeInTheDocument();
    await user.click(within(details).getByRole('button', { name: 'Download consent.pdf' }));
    await waitFor(() => expect(saved).toEqual(['consent.pdf blob:document']));
    click.mockRestore();
    const download = calls.find((c) => c.method === 'GET' && c.path === documentPath);
    expect(download?.authorization).toMatch(/^Bearer /);
  });

  it('edit participant: both names required, shown under the fields; the server text on failure', async () => {
    const { user, calls } = await openStudy({
      [`PUT /api/participants/${PARTICIPANT.participantId}`]: {
        status: 409,
        body: failure(
          'A participant with this e-mail is already in the study',
          'PARTICIPANT_EMAIL_TAKEN',
        ),
      },
    });
    const table = await screen.findByRole('table', { name: 'Participants' });
    await user.click(within(table).getByRole('button', { name: 'Edit Grace Hopper' }));
    const edit = await dialog('Edit Participant');
    await user.clear(within(edit).getByLabelText(/^Last Name/));
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    expect(within(edit).getByText('First name and last name are required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.type(within(edit).getByLabelText(/^Last Name/), '  Murray Hopper ');
    // A changed address says what the change does to the participant's access; the same one not.
    const email = within(edit).getByLabelText(/^E-?mail/i);
    const hint = /the old address no longer gives access/;
    expect(within(edit).queryByText(hint)).toBeNull();
    await user.clear(email);
    await user.type(email, 'grace.new@example.test');
    expect(email).toHaveAccessibleDescription(
      'The participant will confirm the new address with a code when they next return to the study; the old address no longer gives access.',
    );
    await user.clear(email);
    await user.type(email, 'Grace@Example.test');
    expect(within(edit).queryByText(hint)).toBeNull();
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    const failed = await notification('Failed to Update Participant');
    expect(failed).toHaveTextContent('A participant with this e-mail is already in the study');
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      firstName: 'Grace',
      lastName: 'Murray Hopper',
      participantEmail: 'grace@example.test',
      studyCode: 'ABC234',
    });
  });

  it('empty participants: "No Participants Yet" and "Send Invitations" opens the invite dialog', async () => {
    const { user } = await openStudy({
      [`GET ${BASE}/participants`]: { body: { success: true, participants: [], totalCount: 0 } },
    });
    expect(await screen.findByText('No Participants Yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Invitations' }));
    expect(await dialog('Invite/Contact Participants')).toBeInTheDocument();
  });

  it('invite: Continue waits for an e-mail; rules inline once; review, back, send', async () => {
    const { user, calls } = await openStudy({
      'POST /api/email/invitations': {
        body: { success: true, message: 'ok', emailId: 'm1', sentCount: 1, skippedCount: 0 },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
    const compose = await dialog('Invite/Contact Participants');
    const continueButton = within(compose).getByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();

    await user.type(within(compose).getByLabelText('Email 1'), 'not-an-email');
    await user.type(within(compose).getByLabelText('Phone (optional) 1'), '5550001111');
    expect(within(compose).getByLabelText('Phone (optional) 1')).toHaveValue('(555) 000-1111');
    await user.click(continueButton);
    expect(within(compose).getByRole('alert')).toHaveTextContent(
      'Please enter valid email addresses',
    );
    // Shown once: no notification modal on top.
    expect(screen.queryByRole('alertdialog')).toBeNull();

    await user.clear(within(compose).getByLabelText('Email 1'));
    await user.type(within(compose).getByLabelText('Email 1'), 'New.Person@Example.test');
    await user.clear(within(compose).getByLabelText('Phone (optional) 1'));
    await user.type(within(compose).getByLabelText('Phone (optional) 1'), '12345');
    await user.click(continueButton);
    expect(within(compose).getByRole('alert')).toHaveTextContent(
      'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
    );
    await user.clear(within(compose).getByLabelText('Phone (optional) 1'));
    await user.click(continueButton);

    const review = await dialog('Review & Edit Invitation Email');
    const subject = within(review).getByLabelText(/^Subject/);
    expect(subject).toHaveValue('Invitation to participate in Sleep and Activity Study');
    const body = within(review).getByLabelText(/^Message/) as HTMLTextAreaElement;
    expect(body.value).toContain('No description provided');
    expect(body.value).toContain('Study code: ABC234');
    expect(body.value).toContain('/participant/enroll?code=ABC234');

    await user.click(within(review).getByRole('button', { name: 'Back to Edit' }));
    const again = await dialog('Invite/Contact Participants');
    expect(within(again).getByLabelText('Email 1')).toHaveValue('New.Person@Example.test');
    await user.click(within(again).getByRole('button', { name: 'Continue' }));
    const review2 = await dialog('Review & Edit Invitation Email');
    fireEvent.change(within(review2).getByLabelText(/^Subject/), {
      target: { value: 'Join our sleep study' },
    });
    await user.click(within(review2).getByRole('button', { name: 'Send Invitations' }));
    expect(await notification('Invitations Sent')).toHaveTextContent(
      'Invitations were sent to 1 participant.',
    );
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/email/invitations');
    expect(sent?.body).toMatchObject({
      studyCode: 'ABC234',
      studyName: 'Sleep and Activity Study',
      participants: [{ email: 'new.person@example.test' }],
      emailSubject: 'Join our sleep study',
    });
  });

  it('invite: the review refuses an emptied study description line; the fallback text is fine', async () => {
    const { user, calls } = await openStudy({
      'POST /api/email/invitations': {
        body: { success: true, message: 'ok', emailId: 'm1', sentCount: 1, skippedCount: 0 },
      },
    });
    const review = await reviewParticipantInvitation(user);
    const body = within(review).getByLabelText(/^Message/) as HTMLTextAreaElement;
    const generated = body.value;
    expect(generated).toContain('Study description: No description provided');
    fireEvent.change(body, {
      target: {
        value: generated.replace(
          'Study description: No description provided',
          'Study description: ',
        ),
      },
    });
    await user.click(within(review).getByRole('button', { name: 'Send Invitations' }));
    expect(await within(review).findByText('Study description is required')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/email/invitations')).toBe(false);
    fireEvent.change(body, { target: { value: generated } });
    await user.click(within(review).getByRole('button', { name: 'Send Invitations' }));
    expect(await notification('Invitations Sent')).toBeInTheDocument();
  });

  it.each([
    {
      name: 'collaborators: people who are already members are counted apart from the invitations',
      to: 'collaborators',
      reply: { emailId: null, sentCount: 0, alreadyMembers: 2, skippedCount: 0 },
      says: '2 recipients are already members of this study; they were told they have access.',
      omits: 'Invitations were sent to 0',
    },
    {
      name: 'invite: repeats the server skipped are counted in the notification',
      to: 'participants',
      reply: { emailId: 'm1', sentCount: 1, skippedCount: 2 },
      says: 'Invitations were sent to 1 participant. 2 invitations were already sent in the last 24 hours and were skipped.',
    },
    {
      name: 'invite: when every invitation was a repeat, only the skipped sentence shows',
      to: 'participants',
      reply: { emailId: null, sentCount: 0, skippedCount: 1 },
      says: '1 invitation was already sent in the last 24 hours and was skipped.',
      omits: 'Invitations were sent to 0',
    },
    {
      name: 'collaborators: skipped repeats are counted beside members and invitations',
      to: 'collaborators',
      reply: { emailId: 'm5', sentCount: 1, alreadyMembers: 0, skippedCount: 1 },
      says: 'Invitations were sent to 1 collaborator. 1 invitation was already sent in the last 24 hours and was skipped.',
    },
  ])('$name', async ({ to, reply, says, omits }) => {
    const path =
      to === 'participants' ? '/api/email/invitations' : '/api/email/collaborator-invitations';
    const { user } = await openStudy({
      [`POST ${path}`]: { body: { success: true, message: 'ok', ...reply } },
    });
    const review =
      to === 'participants'
        ? await reviewParticipantInvitation(user)
        : await reviewCollaboratorInvitation(user);
    await user.click(within(review).getByRole('button', { name: 'Send Invitations' }));
    const done = await notification('Invitations Sent');
    expect(done).toHaveTextContent(says);
    if (omits) expect(done).not.toHaveTextContent(omits);
  });

  it('contact: an address the study does not know is refused with the server text', async () => {
    const { user } = await openStudy({
      'POST /api/email/contact': {
        status: 400,
        body: failure(
          'x@y.test is not a participant, pending participant or member of this study',
          'NOT_A_STUDY_RECIPIENT',
        ),
      },
    });
    const compose = await openParticipantContact(user);
    await user.type(within(compose).getByLabelText(/^Email Title/), 'Reminder');
    await user.type(within(compose).getByLabelText(/^Email Content/), 'Please sync your device.');
    expect(
      within(compose).getByText(
        'Optional. E-mail addresses of this study’s participants, pending participants or members, separated by commas.',
      ),
    ).toBeInTheDocument();
    await user.type(within(compose).getByLabelText(/^Additional recipients/), 'x@y.test');
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    const review = await dialog('Review & Edit Contact Email');
    await user.click(within(review).getByRole('button', { name: 'Send Emails' }));
    expect(await notification('Failed to Send Emails')).toHaveTextContent(
      'x@y.test is not a participant, pending participant or member of this study',
    );
  });

  it('invite: a failed send shows the server text under "Failed to Send Invitations"', async () => {
    const { user } = await openStudy({
      'POST /api/email/invitations': {
        status: 400,
        body: failure('Participant 1: Invalid email format', 'VALIDATION_ERROR'),
      },
    });
    const review = await reviewParticipantInvitation(user);
    await user.click(within(review).getByRole('button', { name: 'Send Invitations' }));
    expect(await notification('Failed to Send Invitations')).toHaveTextContent(
      'Participant 1: Invalid email format',
    );
  });

  it('CSV: file checks in the browser; a good file fills the rows with a 5-row preview', async () => {
    const parsed = Array.from({ length: 7 }, (_, i) => ({
      email: `p${i + 1}@example.test`,
      phoneNumber: i === 0 ? '5550001111' : null,
      firstName: null,
      lastName: null,
    }));
    const { user, calls } = await openStudy({
      [`POST ${BASE}/roster`]: {
        body: {
          success: true,
          created: 0,
          duplicates: [],
          totalRows: 7,
          dryRun: true,
          participants: parsed,
          message: 'ok',
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
    const compose = await dialog('Invite/Contact Participants');
    const input = within(compose).getByTestId('roster-file-input') as HTMLInputElement;
    const upload = user.setup({ applyAccept: false });

    await upload.upload(input, new File(['x'], 'roster.txt', { type: 'text/plain' }));
    expect(await within(compose).findByText('File must be a CSV file')).toBeInTheDocument();
    await upload.upload(input, new File([''], 'roster.csv', { type: 'text/csv' }));
    expect(await within(compose).findByText('CSV file is empty')).toBeInTheDocument();
    const big = new File(['a'], 'big.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 5_242_880 });
    await upload.upload(input, big);
    expect(await within(compose).findByText('File size must be less than 5MB')).toBeInTheDocument();
    expect(calls.some((c) => c.path === `${BASE}/roster`)).toBe(false);
    // 'Under 5 MB': one byte less than 5,242,880 goes on to the server.
    const under = new File(['email\np1@example.test\n'], 'under.csv', { type: 'text/csv' });
    Object.defineProperty(under, 'size', { value: 5_242_879 });
    await upload.upload(input, under);
    await waitFor(() => expect(calls.some((c) => c.path === `${BASE}/roster`)).toBe(true));
    expect(within(compose).queryByText('File size must be less than 5MB')).toBeNull();

    await upload.upload(
      input,
      new File(['email\np1@example.test\n'], 'roster.csv', { type: 'text/csv' }),
    );
    // The server checks the file for an invitation: pending people stay in, nothing is stored.
    const check = calls.filter((c) => c.path === `${BASE}/roster`).at(-1)?.body as FormData;
    expect(check.get('dryRun')).toBe('true');
    expect(check.get('intent')).toBe('invite');
    const preview = await within(compose).findByRole('table', {
      name: '7 participants from the file',
    });
    expect(within(preview).getAllByRole('row')).toHaveLength(6); // header + 5 rows
    expect(within(compose).getByText('+2 more')).toBeInTheDocument();
    expect(within(compose).getByLabelText('Email 7')).toHaveValue('p7@example.test');
    expect(within(compose).getByLabelText('Phone (optional) 1')).toHaveValue('(555) 000-1111');
  });

  it('CSV: the server’s per-row problems are all listed', async () => {
    const { user } = await openStudy({
      [`POST ${BASE}/roster`]: {
        status: 400,
        body: {
          ...failure('Participant 2: Invalid email format', 'VALIDATION_ERROR'),
          details: {
            fields: [
              { field: 'participants.1.email', message: 'Participant 2: Invalid email format' },
              {
                field: 'participants.2.phoneNumber',
                message: 'Participant 3: Invalid phone number format',
              },
            ],
          },
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
    const compose = await dialog('Invite/Contact Participants');
    await user.upload(
      within(compose).getByTestId('roster-file-input'),
      new File(['email\nbad\n'], 'roster.csv', { type: 'text/csv' }),
    );
    const alert = await within(compose).findByText(/Participant 3: Invalid phone number format/);
    expect(alert).toHaveTextContent('Participant 2: Invalid email format');
  });

  it('CSV: a closed dialog reopens clean; a rejected file replaces the previous file’s rows', async () => {
    let answer = 0;
    const { user, calls } = await openStudy({
      [`POST ${BASE}/roster`]: () =>
        ++answer === 3
          ? {
              status: 400,
              body: {
                ...failure('Participant 1: Invalid email format', 'VALIDATION_ERROR'),
                details: {
                  fields: [
                    {
                      field: 'participants.0.email',
                      message: 'Participant 1: Invalid email format',
                    },
                  ],
                },
              },
            }
          : {
              body: {
                success: true,
                created: 0,
                duplicates: [],
                totalRows: 2,
                dryRun: true,
                participants: ['old1@example.test', 'old2@example.test'].map((email) => ({
                  email,
                  phoneNumber: null,
                  firstName: null,
                  lastName: null,
                })),
                message: 'ok',
              },
            },
      'POST /api/email/invitations': {
        body: { success: true, message: 'ok', emailId: 'm1', sentCount: 1, skippedCount: 0 },
      },
    });
    const openCompose = async () => {
      await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
      return dialog('Invite/Contact Participants');
    };
    const good = () => new File(['email\nold1@example.test\n'], 'old.csv', { type: 'text/csv' });

    let compose = await openCompose();
    await user.upload(within(compose).getByTestId('roster-file-input'), good());
    expect(await within(compose).findByText(/\(old\.csv\)/)).toBeInTheDocument();
    expect(within(compose).getByLabelText('Email 2')).toHaveValue('old2@example.test');
    await user.click(within(compose).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Reopened: nothing of the cancelled file is left.
    compose = await openCompose();
    expect(within(compose).getByLabelText('Email 1')).toHaveValue('');
    expect(within(compose).queryByLabelText('Email 2')).toBeNull();
    expect(within(compose).queryByText(/old\.csv/)).toBeNull();

    // A typed address, a good file, then a file the server rejects: the typed row stays, the
    // old file's rows and preview go, and only the typed address is invited.
    await user.type(within(compose).getByLabelText('Email 1'), 'typed@example.test');
    await user.upload(within(compose).getByTestId('roster-file-input'), good());
    expect(await within(compose).findByLabelText('Email 3')).toHaveValue('old2@example.test');
    await user.upload(
      within(compose).getByTestId('roster-file-input'),
      new File(['email\nbad\n'], 'new.csv', { type: 'text/csv' }),
    );
    expect(
      await within(compose).findByText('Participant 1: Invalid email format'),
    ).toBeInTheDocument();
    expect(within(compose).queryByLabelText('Email 2')).toBeNull();
    expect(within(compose).queryByText(/old\.csv/)).toBeNull();
    expect(within(compose).getByLabelText('Email 1')).toHaveValue('typed@example.test');
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    const review = await dialog('Review & Edit Invitation Email');
    await user.click(within(review).getByRole('button', { name: 'Send Invitations' }));
    await notification('Invitations Sent');
    const sent = calls.find((c) => c.method === 'POST' && c.path === '/api/email/invitations');
    expect(sent?.body).toMatchObject({ participants: [{ email: 'typed@example.test' }] });
  });

  it('collaborators: a cancelled invitation is gone when the dialog reopens', async () => {
    const { user } = await openStudy();
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Collaborator' }));
    let compose = await dialog('Invite/Contact Collaborators');
    await user.type(within(compose).getByLabelText(/^Collaborator Emails/), 'ada@example.test');
    await user.click(within(compose).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Collaborator' }));
    compose = await dialog('Invite/Contact Collaborators');
    expect(within(compose).getByLabelText(/^Collaborator Emails/)).toHaveValue('');
  });

  it('CSV: "Clear all" empties the rows, the file and its messages', async () => {
    const { user } = await openStudy({
      [`POST ${BASE}/roster`]: {
        body: {
          success: true,
          created: 0,
          duplicates: [
            {
              row: 2,
              email: 'grace@example.test',
              reason: 'participant',
              message: 'Participant 2: already in this study',
            },
          ],
          totalRows: 2,
          dryRun: true,
          participants: [
            { email: 'one@example.test', phoneNumber: null, firstName: null, lastName: null },
          ],
          message: 'ok',
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Invite/Contact Participants' }));
    const compose = await dialog('Invite/Contact Participants');
    await user.type(within(compose).getByLabelText('Email 1'), 'typed@example.test');
    await user.upload(
      within(compose).getByTestId('roster-file-input'),
      new File(['email\none@example.test\n'], 'list.csv', { type: 'text/csv' }),
    );
    expect(await within(compose).findByLabelText('Email 2')).toHaveValue('one@example.test');
    expect(within(compose).getByText(/already in this study/)).toBeInTheDocument();
    await user.click(within(compose).getByRole('button', { name: 'Clear all' }));
    expect(within(compose).getByLabelText('Email 1')).toHaveValue('');
    expect(within(compose).queryByLabelText('Email 2')).toBeNull();
    expect(within(compose).queryByText(/list\.csv/)).toBeNull();
    expect(within(compose).queryByText(/already in this study/)).toBeNull();
    expect(within(compose).getByRole('button', { name: 'Continue' })).toBeDisabled();
    expect(within(compose).getByRole('button', { name: 'Clear all' })).toBeDisabled();
  });

  it('contact: title and content, a recipient, typed extras kept only when e-mail-like', async () => {
    const { user, calls } = await openStudy({
      'POST /api/email/contact': {
        body: { success: true, message: 'ok', emailId: 'm2', sentCount: 2 },
      },
    });
    const compose = await openParticipantContact(user);
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    expect(within(compose).getByRole('alert')).toHaveTextContent(
      'Email title and content are required',
    );
    await user.type(within(compose).getByLabelText(/^Email Title/), 'Reminder');
    await user.type(within(compose).getByLabelText(/^Email Content/), 'Please sync your device.');
    await user.type(within(compose).getByLabelText(/^Additional recipients/), 'not an@email.test');
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    expect(within(compose).getByRole('alert')).toHaveTextContent(
      'Please select at least one recipient',
    );
    const list = within(compose).getByTestId('contact-recipient-list');
    expect(list).toHaveStyle({ maxHeight: '200px' });
    await user.click(await within(list).findByRole('checkbox', { name: /Grace Hopper/ }));
    await user.clear(within(compose).getByLabelText(/^Additional recipients/));
    await user.type(
      within(compose).getByLabelText(/^Additional recipients/),
      'x@y.test, bad entry',
    );
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    const review = await dialog('Review & Edit Contact Email');
    await user.click(within(review).getByRole('button', { name: 'Send Emails' }));
    await notification('Emails Sent');
    const sent = calls.find((c) => c.path === '/api/email/contact');
    expect(sent?.body).toMatchObject({
      audience: 'participants',
      recipients: ['grace@example.test', 'x@y.test'],
      emailSubject: 'Reminder',
    });
  });

  it('contact: with thousands of participants, the server search reaches any of them', async () => {
    const person = (n: number): ParticipantRow => ({
      ...PARTICIPANT,
      id: `row-${n}`,
      participantId: `P${String(n).padStart(16, '0')}`,
      firstName: 'Person',
      lastName: String(n),
      participantEmail: `person${n}@example.test`,
    });
    const { user, calls } = await openStudy({
      [`GET ${BASE}/participants`]: (request) => {
        const search = request.query.get('search') ?? '';
        if (search === 'person4321') {
          return { body: { success: true, participants: [person(4321)], totalCount: 1 } };
        }
        // Fewer rows than asked for keeps jsdom quick; the total is what matters here.
        const limit = Math.min(Number(request.query.get('limit') ?? 10), 20);
        const rows = Array.from({ length: limit }, (_, i) => person(i));
        return { body: { success: true, participants: rows, totalCount: 5_000 } };
      },
      'POST /api/email/contact': {
        body: { success: true, message: 'ok', emailId: 'm3', sentCount: 2 },
      },
    });
    const compose = await openParticipantContact(user);
    const list = within(compose).getByTestId('contact-recipient-list');
    await user.click(await within(list).findByRole('checkbox', { name: /person1@example\.test/ }));
    expect(within(compose).getByRole('status')).toHaveTextContent(
      'Showing 20 of 5,000. Search to find others.',
    );
    fireEvent.change(within(compose).getByLabelText('Search participants'), {
      target: { value: 'person4321' },
    });
    await user.click(
      await within(list).findByRole(
        'checkbox',
        { name: /person4321@example\.test/ },
        { timeout: 5_000 },
      ),
    );
    expect(calls.some((c) => c.path.endsWith('/participants') && c.query.get('search'))).toBe(true);
    expect(within(compose).getByText('(2 selected)')).toBeInTheDocument();
    fireEvent.change(within(compose).getByLabelText(/^Email Title/), {
      target: { value: 'Reminder' },
    });
    fireEvent.change(within(compose).getByLabelText(/^Email Content/), {
      target: { value: 'Please sync.' },
    });
    await user.click(within(compose).getByRole('button', { name: 'Continue' }));
    const review = await dialog('Review & Edit Contact Email');
    await user.click(within(review).getByRole('button', { name: 'Send Emails' }));
    await notification('Emails Sent');
    expect(calls.find((c) => c.path === '/api/email/contact')?.body).toMatchObject({
      recipients: ['person1@example.test', 'person4321@example.test'],
    });
  });

  it('pending: status colours, phone formatted as typed, remove after confirming', async () => {
    const { user, calls } = await openStudy(
      {
        [`PUT ${BASE}/pending-participants/pend-1`]: {
          body: {
            success: true,
            pendingParticipant: { ...PENDING[0], phoneNumber: '+12223333444' },
          },
        },
        [`DELETE ${BASE}/pending-participants/pend-2`]: { body: { success: true, message: 'ok' } },
      },
      '?tab=1',
    );
    const table = await screen.findByRole('table', { name: 'Pending participants' });
    expect(within(table).getByText('invited').closest('.MuiChip-root')).not.toHaveClass(
      'MuiChip-colorError',
    );
    expect(within(table).getByText('bounced').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorError',
    );
    // Stored in E.164, shown in the national format.
    expect(within(table).getByText('(555) 123-4567')).toBeInTheDocument();
    await user.click(
      within(table).getByRole('button', { name: 'Edit phone of invited@example.test' }),
    );
    const edit = await dialog('Edit Pending Participant');
    await user.type(within(edit).getByLabelText(/^Phone Number/), '2223333444');
    expect(within(edit).getByLabelText(/^Phone Number/)).toHaveValue('(222) 333-3444');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await notification('Participant Updated');
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      phoneNumber: '(222) 333-3444',
    });
    await user.click(screen.getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(
      within(screen.getByRole('table', { name: 'Pending participants' })).getByRole('button', {
        name: 'Remove odd@example.test',
      }),
    );
    const confirm = await dialog('Remove Pending Participant');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await notification('Participant Removed');
  });

  it('members: main and collaborator tables with fallbacks; the owner removes a collaborator', async () => {
    const { user } = await openStudy(
      { [`DELETE ${BASE}/members/u-2`]: { body: { success: true, message: 'ok' } } },
      '?tab=2',
    );
    const main = await screen.findByRole('table', { name: 'Main Researcher' });
    expect(within(main).getByText('Not provided')).toBeInTheDocument();
    expect(within(main).getByText('Main')).toBeInTheDocument();
    const collab = screen.getByRole('table', { name: 'Collaborative Researchers (1)' });
    expect(within(collab).getByText('N/A')).toBeInTheDocument();
    expect(within(collab).getByText('Collaborator')).toBeInTheDocument();
    expect(within(collab).getByText('(555) 201-3344')).toBeInTheDocument();
    expect(within(collab).getByText('pending').closest('.MuiChip-root')).toHaveClass(
      'MuiChip-colorWarning',
    );
    await user.click(within(collab).getByRole('button', { name: 'Remove Dorothy Hodgkin' }));
    const confirm = await dialog('Remove Collaborator');
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await notification('Collaborator Removed');
  });

  it('e-mail history: summary line; the Email Details dialog fetches body and recipients when opened', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { user, calls } = await openStudy(
      {
        [`GET /api/email/history/${STUDY_ID}/mail-1`]: async () => {
          await gate;
          return { body: { success: true, email: EMAIL_DETAILS } };
        },
      },
      '?tab=3',
    );
    expect(await screen.findByText(/^Invited 2 participant\(s\) · /)).toBeInTheDocument();
    // The list itself carries no recipients or body; nothing is fetched before View.
    expect(calls.some((c) => c.path.startsWith(`/api/email/history/${STUDY_ID}/`))).toBe(false);
    await user.click(screen.getByRole('button', { name: /^View/ }));
    const details = await dialog('Email Details');
    expect(
      within(details).getByText('Invitation to participate in Sleep and Activity Study'),
    ).toBeInTheDocument();
    expect(within(details).getByText('Loading email details...')).toBeInTheDocument();
    release();
    expect(await within(details).findByText('a@example.test')).toBeInTheDocument();
    expect(within(details).getByText('b@example.test')).toBeInTheDocument();
    expect(within(details).getByText('(queued)')).toBeInTheDocument();
    expect(within(details).getByText('sent: 1')).toBeInTheDocument();
    expect(within(details).getByText(/Study code: ABC234/)).toBeInTheDocument();
    expect(within(details).queryByText('Loading email details...')).toBeNull();
  });

  it('e-mail history: the Email Details dialog shows the error text when the details fail', async () => {
    const { user } = await openStudy(
      {
        [`GET /api/email/history/${STUDY_ID}/mail-1`]: {
          status: 404,
          body: failure('Email not found', 'EMAIL_NOT_FOUND'),
        },
      },
      '?tab=3',
    );
    await user.click(await screen.findByRole('button', { name: /^View/ }));
    const details = await dialog('Email Details');
    expect(await within(details).findByText('Email not found')).toBeInTheDocument();
    expect(within(details).queryByText('Loading email details...')).toBeNull();
  });

  it('edit study: the name is required, shown once under the field; values are trimmed', async () => {
    const { user, calls } = await openStudy({
      [`PUT ${BASE}`]: (request) => ({
        body: { success: true, study: makeStudy({ ...(request.body as Partial<Study>) }) },
      }),
    });
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = await dialog('Edit Study');
    await user.clear(within(edit).getByLabelText(/^Study Name/));
    await user.click(within(edit).getByRole('button', { name: 'Save Changes' }));
    expect(within(edit).getByText('Study name is required')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await user.type(within(edit).getByLabelText(/^Study Name/), '  Renamed  ');
    await user.type(within(edit).getByLabelText(/^Description/), ' About sleep. ');
    // The owner also decides who may enrol.
    await user.click(
      within(edit).getByRole('switch', { name: 'Anyone with the study code can enroll' }),
    );
    await user.click(within(edit).getByRole('button', { name: 'Save Changes' }));
    await user.click(
      within(await notification('Study Updated')).getByRole('button', { name: 'Got it' }),
    );
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Renamed',
      description: 'About sleep.',
      duration: '4 weeks',
      settings: { ...makeStudy().settings, allowSelfEnrollment: true },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Renamed' })).toBeInTheDocument();
  });

  it('data export: the export form, list and scripts first; the extraction runs closed until opened', async () => {
    const { user, calls } = await openStudy(
      {
        [`GET ${BASE}/wearable-authorizations`]: {
          body: { success: true, authorizations: [], totalCount: 0 },
        },
        [`GET ${BASE}/exports`]: { body: { success: true, exports: [] } },
        [`GET ${BASE}/extraction-jobs`]: { body: { success: true, jobs: [] } },
      },
      '?tab=4',
    );
    expect(screen.getByRole('tab', { name: 'Data export' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Data export' })).toBeVisible();
    expect(await screen.findByText('No exports yet.')).toBeInTheDocument();
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.indexOf('Use from a script')).toBeGreaterThan(headings.indexOf('Data export'));
    expect(headings.indexOf('Extraction runs')).toBeGreaterThan(
      headings.indexOf('Use from a script'),
    );
    // Closed: the old panel is not there, nor are its jobs asked for.
    const runs = screen.getByRole('button', { name: 'Extraction runs' });
    expect(runs).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Start Extraction' })).toBeNull();
    expect(calls.some((c) => c.path === `${BASE}/extraction-jobs`)).toBe(false);
    await user.click(runs);
    const region = await screen.findByRole('region', { name: 'Extraction runs' });
    expect(
      within(region).getByRole('heading', { level: 2, name: 'Data Extraction' }),
    ).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Start Extraction' })).toBeDisabled();
    expect(await within(region).findByText('No extractions yet.')).toBeInTheDocument();
  });
});
