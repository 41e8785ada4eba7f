import {
  GOOGLE_HEALTH_READ_SCOPES,
  type Study,
  type WearableAuthorizationRow,
} from '@research/contracts';
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/** A study of Ada's as the study endpoints answer it; tests override what they look at. */
export function makeStudy(overrides: Partial<Study> = {}): Study {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    name: 'Sleep and Activity Study',
    description: null,
    duration: '4 weeks',
    studyCode: 'ABC234',
    status: 'active',
    participantCount: 1,
    createdAt: '2026-03-05T10:00:00.000Z',
    role: 'main',
    ownerName: 'Ada Lovelace King',
    hasPassword: true,
    collaborators: [],
    settings: {
      allowSelfEnrollment: false,
      requireVerification: true,
      dataRetentionDays: 365,
      removeDataDeletedAtSource: false,
      validDayMinHours: 10,
      riskNoSyncDays: 2,
      reminderNoSyncDays: null,
      consentRequired: true,
      withdrawalData: 'keep',
    },
    ...overrides,
  };
}

/** The open dialog of that name (its title). */
export const dialog = (name: string) => screen.findByRole('dialog', { name });

/** The notification modal: an alert dialog for errors and warnings, a dialog otherwise. */
export async function notification(title: string): Promise<HTMLElement> {
  let modal: HTMLElement | undefined;
  await waitFor(() => {
    modal = [
      ...screen.queryAllByRole('dialog', { name: title }),
      ...screen.queryAllByRole('alertdialog', { name: title }),
    ][0];
    expect(modal).toBeDefined();
  });
  return modal as HTMLElement;
}

/** Florence's wearable connection as the study's listing answers it; every scope by default. */
export function makeAuthorizationRow(
  overrides: Partial<WearableAuthorizationRow> = {},
): WearableAuthorizationRow {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    participantId: 'P0000000000000001',
    name: 'Florence Nightingale',
    email: 'florence@example.test',
    authorizationStatus: true,
    hasTokens: true,
    wearableUserId: '1884575035688424564',
    grantedScopes: [...GOOGLE_HEALTH_READ_SCOPES],
    status: 'active',
    tokenExpiresAt: null,
    ...overrides,
  };
}
