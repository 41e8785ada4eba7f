/**
 * Text fitting for the study cards: the name takes at most 2 lines of about 28
 * characters; the description preview at most 4 lines, the first of about 45 characters and the
 * others of about 39, the last one trimmed to 36 characters plus an ellipsis when text is left
 * over. Pure functions so the rules are unit-tested apart from layout.
 */

import { STUDY_DASHBOARD_TEXTS } from '@research/contracts';

const ELLIPSIS = STUDY_DASHBOARD_TEXTS.ellipsis;

const NAME_LINE_LENGTH = 28;
const NAME_MAX_LINES = 2;
const DESCRIPTION_LINE_LENGTHS = [45, 39, 39, 39] as const;
const DESCRIPTION_LAST_LINE_LENGTH = 36;

/**
 * Greedy word wrap: line i holds at most widths[i] characters (the last width repeats). Words
 * longer than a line are split hard. Runs of whitespace (line breaks included) count as one space.
 */
export function wrapWords(text: string, widths: readonly number[]): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  const widthOf = (index: number) =>
    Math.max(1, widths[Math.min(index, widths.length - 1)] ?? Number.POSITIVE_INFINITY);
  let current = '';
  for (let word of words) {
    for (;;) {
      const width = widthOf(lines.length);
      const candidate = current ? `${current} ${word}` : word;
      if (candidate.length <= width) {
        current = candidate;
        break;
      }
      if (current) {
        lines.push(current);
        current = '';
        continue;
      }
      // A single word wider than the line: cut it.
      lines.push(word.slice(0, width));
      word = word.slice(width);
      if (!word) break;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/**
 * Wraps into at most `maxLines` lines; when text is left over, the last line is cut to
 * `lastLineLength` characters (at a word end when one is near) and ends with an ellipsis.
 */
export function fitLines(
  text: string,
  widths: readonly number[],
  maxLines: number,
  lastLineLength: number,
): string[] {
  const lines = wrapWords(text, widths);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  // What would have followed on the last line, so the cut can reach into the next words.
  const rest = lines.slice(maxLines - 1).join(' ');
  kept[maxLines - 1] = `${rest.slice(0, lastLineLength).trimEnd()}${ELLIPSIS}`;
  return kept;
}

/** The card's description preview, as lines; empty for a missing or blank description. */
export function descriptionPreview(description: string | null | undefined): string[] {
  if (!description?.trim()) return [];
  return fitLines(
    description,
    DESCRIPTION_LINE_LENGTHS,
    DESCRIPTION_LINE_LENGTHS.length,
    DESCRIPTION_LAST_LINE_LENGTH,
  );
}

/** The card's name: at most 2 lines of about 28 characters, the second cut with an ellipsis. */
export function clampStudyName(name: string): string[] {
  return fitLines(name, [NAME_LINE_LENGTH], NAME_MAX_LINES, NAME_LINE_LENGTH - ELLIPSIS.length);
}
