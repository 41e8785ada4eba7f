import { displayPhone } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { contactProblem, contactRecipients } from './contact-form';
import { hasAnyEmail, inviteProblem } from './invite-rows';

describe('invite rules', () => {
  const row = (email: string, phone = '') => ({ email, phone });

  it('Continue needs some row with an e-mail', () => {
    expect(hasAnyEmail([row(''), row('', '(111) - 0000 - 000')])).toBe(false);
    expect(hasAnyEmail([row(''), row('a@b.co')])).toBe(true);
  });

  it('reports the first broken rule with the product’s text', () => {
    expect(inviteProblem([row('a@b.co')], ' ')).toBe('Study name is required');
    expect(inviteProblem([row('')], 'S')).toBe('Please add at least one participant');
    expect(inviteProblem([row('', '(111) - 0000 - 000')], 'S')).toBe(
      'Please enter participant email addresses',
    );
    expect(inviteProblem([row('a@b')], 'S')).toBe('Please enter valid email addresses');
    expect(inviteProblem([row('a@b.co', '(555) 123-45')], 'S')).toBe(
      'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
    );
    expect(inviteProblem([row('a@b.co', '(555) 123-4567'), row('')], 'S')).toBeNull();
    expect(inviteProblem([row('a@b.co', '+44 7700 900123')], 'S')).toBeNull();
  });
});

describe('contact rules', () => {
  it('needs title and content, then a recipient; recipients are unique', () => {
    const empty = { title: '', content: 'c', selected: [], extras: '' };
    expect(contactProblem(empty)).toBe('Email title and content are required');
    expect(contactProblem({ ...empty, title: 't', extras: 'not an email' })).toBe(
      'Please select at least one recipient',
    );
    const draft = { title: 't', content: 'c', selected: ['A@b.co'], extras: 'a@b.co, c@d.co' };
    expect(contactProblem(draft)).toBeNull();
    expect(contactRecipients(draft)).toEqual(['a@b.co', 'c@d.co']);
  });
});

describe('stored phones', () => {
  it('shows a stored number in the national format, text that is no number as stored', () => {
    expect(displayPhone('5551234567')).toBe('(555) 123-4567');
    expect(displayPhone('(555) - 201 - 3344')).toBe('(555) 201-3344');
    expect(displayPhone('12345')).toBe('12345');
  });
});
