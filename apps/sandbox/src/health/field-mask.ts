import { invalidArgument } from './errors.js';

/**
 * Google's partial responses (the standard `fields` query parameter): a
 * comma-separated selection where `a/b` selects `b` inside `a`, `a(b,c)` selects `b` and `c`
 * inside `a`, and `*` selects every field at its level. A selection applies to every element of
 * an array. What it leaves empty is omitted, as proto3 JSON omits empty messages.
 */

/** The selected fields of one level: a name (or `*`) to `null` (the whole value) or a deeper mask. */
export type FieldMask = Map<string, FieldMask | null>;

function invalid(text: string): Error {
  return invalidArgument(`Invalid field selection: ${text}`);
}

function merge(mask: FieldMask, name: string, sub: FieldMask | null): void {
  if (!mask.has(name)) {
    mask.set(name, sub);
    return;
  }
  const had = mask.get(name) ?? null;
  // Selecting the whole value wins over selecting some of its fields.
  if (had === null || sub === null) {
    mask.set(name, null);
    return;
  }
  for (const [key, value] of sub) merge(had, key, value);
}

/** Parses a `fields` value; a malformed one is Google's 400 INVALID_ARGUMENT. */
export function parseFieldMask(value: string): FieldMask {
  const text = value.replace(/\s+/g, '');
  let at = 0;
  const name = (): string => {
    const match = /^(\*|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(at));
    if (!match) throw invalid(text);
    at += match[0].length;
    return match[0];
  };
  // One selection: `name`, `name/selection` or `name(list)`.
  const selection = (into: FieldMask): void => {
    const key = name();
    if (text[at] === '/') {
      at += 1;
      const sub: FieldMask = new Map();
      selection(sub);
      merge(into, key, sub);
    } else if (text[at] === '(') {
      at += 1;
      const sub = list();
      if (text[at] !== ')') throw invalid(text);
      at += 1;
      merge(into, key, sub);
    } else merge(into, key, null);
  };
  const list = (): FieldMask => {
    const mask: FieldMask = new Map();
    selection(mask);
    while (text[at] === ',') {
      at += 1;
      selection(mask);
    }
    return mask;
  };
  const mask = list();
  if (at !== text.length) throw invalid(text);
  return mask;
}

const isEmptyObject = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length === 0;

/** The part of an answer a mask selects (undefined when it selects nothing of a scalar). */
export function applyFieldMask(value: unknown, mask: FieldMask): unknown {
  if (Array.isArray(value)) return value.map((item) => applyFieldMask(item, mask) ?? {});
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const sub = mask.has(key) ? mask.get(key) : mask.get('*');
    if (sub === undefined) continue;
    const kept = sub === null ? inner : applyFieldMask(inner, sub);
    if (kept === undefined || isEmptyObject(kept)) continue;
    out[key] = kept;
  }
  return out;
}
