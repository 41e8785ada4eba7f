import { createHash } from 'node:crypto';

/** A Google account as the sandbox issuer presents it (claims of the ID token and userinfo). */
export interface SimulatedAccount {
  /** Stable subject: derived from the lower-cased e-mail, so it survives restarts. */
  sub: string;
  email: string;
  name: string;
  givenName: string;
  familyName: string;
  picture?: string;
}

/**
 * Google subjects are 21-digit decimal strings. Deriving ours from the e-mail keeps `sub` stable
 * per person across restarts and machines, which the server relies on to recognise a returning user.
 */
export function subjectFor(email: string): string {
  const digest = createHash('sha256').update(email.trim().toLowerCase()).digest();
  let digits = '1';
  for (const byte of digest) {
    digits += (byte % 10).toString();
    if (digits.length === 21) break;
  }
  return digits;
}

function splitName(name: string): { givenName: string; familyName: string } {
  const parts = name.trim().split(/\s+/);
  const givenName = parts[0] ?? '';
  return { givenName, familyName: parts.slice(1).join(' ') };
}

/** Builds an account for any e-mail; the name defaults to the local part of the address. */
export function accountFor(email: string, name?: string): SimulatedAccount {
  const normalized = email.trim().toLowerCase();
  const displayName = name?.trim() || normalized.split('@')[0] || normalized;
  return {
    sub: subjectFor(normalized),
    email: normalized,
    name: displayName,
    ...splitName(displayName),
  };
}

/** The accounts offered on the "Choose an account" page and listed in the inbox. */
export const SIMULATED_ACCOUNTS: readonly SimulatedAccount[] = [
  accountFor('alex.rivera@gmail.test', 'Alex Rivera'),
  accountFor('sam.chen@gmail.test', 'Sam Chen'),
  accountFor('priya.patel@gmail.test', 'Priya Patel'),
  accountFor('jordan.okafor@gmail.test', 'Jordan Okafor'),
];

/** Loose check, like the one Google's own form applies before looking an address up. */
export function isPlausibleEmail(value: string): boolean {
  return value.length <= 254 && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(value);
}
