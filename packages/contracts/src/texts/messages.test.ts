import { describe, expect, it } from 'vitest';
import { ACCOUNT_FORM_MESSAGES } from './auth.js';
import {
  authenticationRequiredTo,
  CSV_MESSAGES,
  EXTRACTION_MESSAGES,
  INVITE_MESSAGES,
  participantMessage,
  REAUTH_MESSAGES,
  STUDY_CODE_MESSAGES,
  STUDY_MESSAGES,
  VERIFICATION_MESSAGES,
  WEARABLE_MESSAGES,
} from './messages.js';
import { NETWORK_MESSAGES } from './shell.js';

describe('messages', () => {
  it('copies the product wording exactly', () => {
    expect(ACCOUNT_FORM_MESSAGES.fillAllFields).toBe('Please fill in all fields');
    expect(ACCOUNT_FORM_MESSAGES.passwordTooShort).toBe('Password must be at least 6 characters');
    expect(STUDY_MESSAGES.nameRequired).toBe('Study name is required');
    expect(STUDY_MESSAGES.newPasswordTooShort).toBe(
      'New password must be at least 6 characters long',
    );
    expect(STUDY_CODE_MESSAGES.invalidFormat).toBe(
      'Study code must be 6-8 characters (letters and numbers only)',
    );
    expect(CSV_MESSAGES.tooLarge).toBe('File size must be less than 5MB');
    expect(INVITE_MESSAGES.validPhones).toBe(
      'Please enter valid phone numbers, such as (555) 123-4567 or +44 7700 900123',
    );
    expect(VERIFICATION_MESSAGES.tooManyAttempts).toBe(
      'Too many failed attempts. Please request a new code.',
    );
  });

  it('fills placeholders', () => {
    expect(ACCOUNT_FORM_MESSAGES.signInFailed('bad password')).toBe(
      'Failed to sign in: bad password',
    );
    expect(ACCOUNT_FORM_MESSAGES.googleSignInFailed()).toBe(
      'Failed to sign in with Google: Unknown error',
    );
    expect(NETWORK_MESSAGES.httpStatus(503, 'Service Unavailable')).toBe(
      'HTTP 503: Service Unavailable',
    );
    expect(EXTRACTION_MESSAGES.startFailed('quota')).toBe('Failed to start extraction: quota');
    expect(VERIFICATION_MESSAGES.codeSent('phone')).toBe('Verification code sent to your phone!');
    expect(VERIFICATION_MESSAGES.attempts(2)).toBe('2/3');
    expect(REAUTH_MESSAGES.failed()).toBe('Reauthorization failed: Unknown error');
    // Google's codes are explained, never shown.
    expect(WEARABLE_MESSAGES.callbackFailed('access_denied')).toBe(
      'You chose Cancel on Google’s page, so nothing was shared and nothing was changed. Choose Try Again to go back to Google’s page.',
    );
    expect(WEARABLE_MESSAGES.callbackFailed('access_denied', false)).toBe(
      'You chose Cancel on Google’s page, so nothing was shared and nothing was changed.',
    );
    expect(WEARABLE_MESSAGES.callbackFailed('server_error')).not.toContain('server_error');
    expect(INVITE_MESSAGES.invitationSubject('Sleep Study')).toBe(
      'Invitation to participate in Sleep Study',
    );
    expect(INVITE_MESSAGES.collaboratorSubject('Sleep Study')).toBe(
      'Collaborator Invitation: Sleep Study',
    );
  });

  it('tells participants about their wearable connection without protocol words or provider codes', () => {
    const shown = [
      ...Object.values(WEARABLE_MESSAGES).filter((text) => typeof text === 'string'),
      ...['access_denied', 'server_error', 'invalid_scope'].map((code) =>
        WEARABLE_MESSAGES.callbackFailed(code),
      ),
    ];
    for (const text of shown) {
      expect(text).not.toMatch(
        /PKCE|verifier|state parameter|authorization code|tokens|access_denied|server_error|invalid_scope/i,
      );
    }
  });

  it('builds prefixed and authentication texts', () => {
    expect(participantMessage(2, 'Email is required')).toBe('Participant 2: Email is required');
    expect(authenticationRequiredTo('send invitations')).toBe(
      'Authentication required to send invitations',
    );
    expect(authenticationRequiredTo()).toBe('Authentication required');
  });
});
