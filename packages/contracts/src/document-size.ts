/**
 * Every way the product shows a file's size, in one place. Three forms, each fixed by the
 * product (see docs/product.md):
 * - participant details: bytes under 1 KB, whole KB (rounded) from there;
 * - every other document list: "MB with 2 decimals or KB with 1 decimal";
 * - the participant's own profile form: "Bytes, KB, MB or GB".
 * A file with content never reads as zero: the KB forms show at least their smallest step.
 */

const KIB = 1024;
const MIB = KIB * KIB;

const isEmpty = (bytes: number) => !Number.isFinite(bytes) || bytes <= 0;

/**
 * KB with 1 decimal under 1 MB ('1.5 KB', at least '0.1 KB' for a file with content), MB with 2
 * decimals from there ('2.35 MB'). A size that would print '1024.0 KB' is shown as MB instead.
 */
export function formatDocumentSize(bytes: number): string {
  if (isEmpty(bytes)) return '0.0 KB';
  const kb = Math.max(0.1, Number((bytes / KIB).toFixed(1)));
  if (kb < KIB) return `${kb.toFixed(1)} KB`;
  return `${(bytes / MIB).toFixed(2)} MB`;
}

/**
 * As participant details show documents: '45 bytes' under 1 KB (rounding a small file up to
 * '1 KB' overstated it up to 20-fold), whole KB, rounded, from 1 KB on.
 */
export function formatSizeKBRounded(bytes: number): string {
  if (isEmpty(bytes)) return '0 bytes';
  if (bytes < KIB) return bytes === 1 ? '1 byte' : `${Math.floor(bytes)} bytes`;
  return `${Math.round(bytes / KIB)} KB`;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/**
 * Bytes, KB, MB or GB with up to 2 decimals and trailing zeros dropped ('1.5 KB', '1 MB').
 * A value that would round to 1024 of one unit is shown as 1 of the next.
 */
export function formatSizeHuman(bytes: number): string {
  if (isEmpty(bytes)) return '0 Bytes';
  let unit = 0;
  let value = bytes;
  while (unit < SIZE_UNITS.length - 1 && Number(value.toFixed(2)) >= KIB) {
    value /= KIB;
    unit += 1;
  }
  return `${Number(value.toFixed(2))} ${SIZE_UNITS[unit]}`;
}
