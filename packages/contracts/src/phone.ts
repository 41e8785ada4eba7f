/**
 * Phone numbers, one rule for the web forms and the server: read in a country (or by their own
 * '+' code) with libphonenumber-js and stored in E.164. A number is valid when its length is
 * possible for its country, not when its range is in use (see docs/decisions/0008).
 */

import {
  AsYouType,
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
} from 'libphonenumber-js';
import { PHONE_DIGITS } from './constants.js';
import { PHONE_MESSAGES } from './texts/messages.js';

const digitsOf = (value: string): string => value.replace(/\D/g, '');

/**
 * Account phone as typed: the same national grouping every phone input uses ('(555) 123-4567').
 * Non-digits are dropped and digits past the tenth ignored, so pasting '+1 (555) 123-4567'
 * keeps the first ten digits typed.
 */
export function formatAccountPhone(value: string): string {
  const digits = digitsOf(value).slice(0, PHONE_DIGITS);
  return digits === '' ? '' : new AsYouType(DEFAULT_PHONE_COUNTRY).input(digits);
}

/**
 * A complete account phone: a possible number of the home country with ten national digits, in
 * any grouping (the form's '(555) 123-4567', the '(555) - 123 - 4567' of older clients, or E.164).
 */
export function isAccountPhone(value: string): boolean {
  const parsed = parsePhone(value, DEFAULT_PHONE_COUNTRY);
  return (
    parsed?.isPossible() === true &&
    parsed.countryCallingCode === getCountryCallingCode(DEFAULT_PHONE_COUNTRY) &&
    parsed.nationalNumber.length === PHONE_DIGITS
  );
}

/**
 * Characters a phone may contain: digits, the separators our formats and common hand-typed forms
 * use, and one leading '+' for a number written with its country code. Letters make the phone
 * invalid rather than being ignored (the phone library would otherwise pick a number out of
 * "call 555…"), so a typo is reported instead of silently stored.
 */
const PHONE_CHARACTERS = /^\+?[\d\s().-]*$/;

/**
 * Countries a number typed without '+' is read in. Numbers typed with '+' carry their own country;
 * the default keeps the existing North American numbers (typed as 10 digits) valid everywhere.
 */
export type PhoneCountry = CountryCode;
export const DEFAULT_PHONE_COUNTRY: PhoneCountry = 'US';

/** Every country the phone rules know, for a country picker. */
export const phoneCountries = (): readonly PhoneCountry[] => getCountries();

/** The calling code of a country ('44' for GB), for labels such as 'GB +44'. */
export const phoneCallingCode = (country: PhoneCountry): string => getCountryCallingCode(country);

function parsePhone(value: string, country: PhoneCountry) {
  const trimmed = value.trim();
  if (trimmed === '' || !PHONE_CHARACTERS.test(trimmed)) return undefined;
  return parsePhoneNumberFromString(trimmed, country);
}

/**
 * The E.164 form ('+447700900123') of a phone typed in `country` or with its own '+' code; null
 * when it is not a possible number there. "Possible" checks the length for the country, not
 * whether the range is assigned today: test and fictional ranges (555 in North America, 7700 900
 * in the UK) must keep working, and an SMS provider is the judge of whether a number is live.
 */
export function toE164(
  value: string | null | undefined,
  country: PhoneCountry = DEFAULT_PHONE_COUNTRY,
): string | null {
  const parsed = parsePhone(value ?? '', country);
  return parsed?.isPossible() ? parsed.number : null;
}

/** A phone typed in `country` (or with '+' and its code) that could be dialled. */
export const isValidPhone = (value: string, country: PhoneCountry = DEFAULT_PHONE_COUNTRY) =>
  toE164(value, country) !== null;

/** Phone is optional: blank is fine, otherwise it must be a possible number (see `toE164`). */
export const isValidOptionalPhone = (
  value: string | null | undefined,
  country: PhoneCountry = DEFAULT_PHONE_COUNTRY,
): boolean => value == null || value.trim() === '' || isValidPhone(value, country);

/**
 * The message for a phone that is not valid, or null when it is. Blank and malformed numbers get
 * the long-standing 'Invalid phone number format'; a number of the wrong length says which way.
 */
export function phoneProblem(
  value: string,
  country: PhoneCountry = DEFAULT_PHONE_COUNTRY,
): string | null {
  if (isValidPhone(value, country)) return null;
  const trimmed = value.trim();
  if (trimmed === '' || !PHONE_CHARACTERS.test(trimmed)) return PHONE_MESSAGES.invalid;
  switch (validatePhoneNumberLength(trimmed, country)) {
    case 'TOO_SHORT':
      return PHONE_MESSAGES.tooShort;
    case 'TOO_LONG':
      return PHONE_MESSAGES.tooLong;
    case 'INVALID_COUNTRY':
      return PHONE_MESSAGES.unknownCountryCode;
    default:
      return PHONE_MESSAGES.invalid;
  }
}

/**
 * Phones are stored in E.164; blank (or not a possible number) is none. Rows stored before the
 * change hold 10 North American digits, which this reads as US numbers.
 */
export const storedPhone = (value: string | null | undefined): string | null => toE164(value);

/** Do two phones name the same number (each read as `toE164` reads it)? Blank matches nothing. */
export function samePhone(a: string | null | undefined, b: string | null | undefined): boolean {
  const left = toE164(a);
  return left !== null && left === toE164(b);
}

/**
 * How a phone is shown, everywhere: a number of the home country (the default country, whose
 * researchers and participants read their own numbers) in its national format ('(617) 555-0123'),
 * any other in international format ('+44 7700 900123'), so its country is never in doubt. Stored
 * E.164, bare digits and the older hand-grouped forms all come out alike; text that is no
 * possible number (a typo an operator stored before phones were checked) is shown as stored.
 */
export function displayPhone(
  value: string | null | undefined,
  home: PhoneCountry = DEFAULT_PHONE_COUNTRY,
): string {
  const e164 = toE164(value, home);
  if (e164 === null) return value?.trim() ?? '';
  const parsed = parsePhoneNumberFromString(e164);
  if (!parsed) return e164;
  return parsed.countryCallingCode === getCountryCallingCode(home)
    ? parsed.formatNational()
    : parsed.formatInternational();
}

/**
 * A phone input's text while typing, in the grouping `displayPhone` shows: a number started with
 * '+' is grouped for its country as it grows ('+44 7700 900123'); anything else is a number of the
 * home country ('(555) 123-4567'), at most ten digits.
 */
export function formatPhoneInput(value: string): string {
  const trimmed = value.trimStart();
  if (!trimmed.startsWith('+')) return formatAccountPhone(value);
  const typed = `+${digitsOf(trimmed)}`;
  return typed === '+' ? typed : new AsYouType().input(typed);
}

/** The digits of a phone; '' when it has none. */
export const phoneDigits = (value: string): string => digitsOf(value);
