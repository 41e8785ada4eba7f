import { describe, expect, it } from 'vitest';
import {
  emailSummary,
  keepTypedRecipients,
  sendContactEmailSchema,
  sendInvitationsSchema,
} from './study-email.js';
import {
  collaboratorCredentialsBlock,
  collaboratorInvitationDefaults,
  invitationBodyProblem,
  invitationEmail,
} from './study-invitation-mail.js';
import { updateParticipantSchema } from './study-participants.js';
import { addPendingParticipantsSchema, validateRosterRows } from './study-roster.js';

describe('validateRosterRows: every roster row checked, every problem reported', () => {
  it('requires one participant', () => {
    expect(validateRosterRows([])).toEqual([
      { field: 'participants', message: 'At least one participant is required' },
    ]);
  });

  it('reports every row at once with the Participant N prefix', () => {
    const issues = validateRosterRows([
      { email: 'ok@example.org', phoneNumber: '(111) - 0000 - 000' },
      { email: '' },
      { email: 'not-an-email', phoneNumber: '12345' },
      { email: 'x@example.org', firstName: 'a'.repeat(101), lastName: 'b'.repeat(101) },
    ]);
    expect(issues.map((i) => i.message)).toEqual([
      'Participant 2: Email is required',
      'Participant 3: Invalid email format',
      'Participant 3: Invalid phone number format',
      'Participant 4: First name is too long (max 100 characters)',
      'Participant 4: Last name is too long (max 100 characters)',
    ]);
    expect(issues[0]?.field).toBe('participants.1.email');
  });

  it('is what the pending-participants body schema reports', () => {
    const result = addPendingParticipantsSchema.safeParse({
      participants: [{ email: 'a@b.co' }, { email: 'bad' }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['participants.1.email', 'Participant 2: Invalid email format'],
    ]);
  });
});

describe('request schemas', () => {
  it('requires both names when editing a participant', () => {
    const result = updateParticipantSchema.safeParse({ firstName: ' ', lastName: 'Doe' });
    expect(result.error?.issues[0]?.message).toBe('First name and last name are required');
  });

  it('uses the invite dialog texts', () => {
    const base = {
      studyCode: 'ABC123',
      studyName: 'Sleep',
      emailSubject: 's',
      emailBody: 'b',
    };
    expect(
      sendInvitationsSchema.safeParse({ ...base, participants: [] }).error?.issues[0]?.message,
    ).toBe('Please add at least one participant');
    const bad = sendInvitationsSchema.safeParse({
      ...base,
      participants: [{ email: 'nope', phoneNumber: '123' }],
    });
    expect(bad.error?.issues.map((i) => i.message)).toEqual([
      'Please enter valid email addresses',
      'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
    ]);
  });

  it("requires the invitation's study description, which the generated body always has", () => {
    const participants = [{ email: 'a@b.co' }];
    const generated = invitationEmail({
      studyName: 'Sleep',
      description: null,
      studyCode: 'ABC123',
      baseUrl: 'https://study.example.org',
    });
    expect(invitationBodyProblem(generated.body)).toBeNull();
    const emptied = generated.body.replace('No description provided', '');
    expect(invitationBodyProblem(emptied)).toBe('Study description is required');
    expect(invitationBodyProblem('Hi\r\n  study description:\t\r\nBye')).toBe(
      'Study description is required',
    );
    // Another text without that line is the researcher's choice.
    expect(invitationBodyProblem('Please join.')).toBeNull();
    const result = sendInvitationsSchema.safeParse({
      studyCode: 'ABC123',
      studyName: 'Sleep',
      participants,
      emailSubject: generated.subject,
      emailBody: emptied,
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['emailBody', 'Study description is required'],
    ]);
  });

  it('uses the contact texts', () => {
    const result = sendContactEmailSchema.safeParse({
      studyCode: 'ABC123',
      audience: 'participants',
      recipients: [],
      emailSubject: '',
      emailBody: '',
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Please select at least one recipient',
      'Email title and content are required',
      'Email title and content are required',
    ]);
  });
});

describe('invitation and contact e-mail texts', () => {
  it('generates the invitation with fallbacks and the enrol link', () => {
    const mail = invitationEmail({
      studyName: 'Sleep & Steps',
      studyCode: 'ABC123',
      baseUrl: 'https://study.example.org/',
    });
    expect(mail.subject).toBe('Invitation to participate in Sleep & Steps');
    expect(mail.body).toContain('Sleep & Steps');
    expect(mail.body).toContain('No description provided');
    expect(mail.body).toContain('Not specified');
    expect(mail.body).toContain('Fitbit');
    expect(mail.body).toContain('Study code: ABC123');
    expect(mail.body).toContain('https://study.example.org/participant/enroll?code=ABC123');
    expect(mail.body.startsWith('Hello,')).toBe(true);
    expect(mail.body).toContain('The Research Team');
  });

  it('gives the collaborator defaults and the credentials block', () => {
    expect(collaboratorInvitationDefaults('Sleep').subject).toBe('Collaborator Invitation: Sleep');
    expect(collaboratorInvitationDefaults('Sleep').body).toContain('research dashboard');
    const block = collaboratorCredentialsBlock({
      studyCode: 'ABC123',
      password: 'p&ss word',
      baseUrl: 'http://localhost:3000',
    });
    expect(block).toContain('Study password: p&ss word');
    expect(block).toContain(
      'http://localhost:3000/researcher/dashboard?code=ABC123&password=p%26ss+word',
    );
  });

  it('writes the summary of each kind', () => {
    expect(emailSummary('invitation', 2)).toBe('Invited 2 participant(s)');
    expect(emailSummary('participant_contact', 1)).toBe('Contacted 1 participant(s)');
    expect(emailSummary('collaborator_contact', 3)).toBe('Contacted 3 collaborator(s)');
  });

  it('keeps typed recipients that look like an e-mail', () => {
    expect(keepTypedRecipients(' a@b.co , a b@c.de; nope\n\nZ@Q.io,no@tld')).toEqual([
      'a@b.co',
      'z@q.io',
    ]);
  });
});
