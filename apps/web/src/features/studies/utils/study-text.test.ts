import { STUDY_DASHBOARD_TEXTS } from '@research/contracts';
import { describe, expect, it } from 'vitest';
import { clampStudyName, descriptionPreview, fitLines, wrapWords } from './study-text';

const ELLIPSIS = STUDY_DASHBOARD_TEXTS.ellipsis;

describe('wrapWords', () => {
  it('wraps greedily at word ends within each width, the last width repeating', () => {
    expect(wrapWords('aaa bbb ccc ddd', [7, 3])).toEqual(['aaa bbb', 'ccc', 'ddd']);
  });

  it('treats any whitespace run as one space and ignores outer blanks', () => {
    expect(wrapWords('  one\n\ntwo\tthree  ', [100])).toEqual(['one two three']);
  });

  it('splits a word longer than the line', () => {
    expect(wrapWords('abcdefghij', [4])).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('returns no lines for blank text', () => {
    expect(wrapWords('   ', [10])).toEqual([]);
  });
});

describe('fitLines', () => {
  it('keeps text that fits as it is', () => {
    expect(fitLines('aaa bbb', [3], 2, 2)).toEqual(['aaa', 'bbb']);
  });

  it('cuts the last line and adds the ellipsis when text is left over', () => {
    expect(fitLines('aaa bbb ccc', [3], 2, 5)).toEqual(['aaa', `bbb c${ELLIPSIS}`]);
  });
});

describe('descriptionPreview', () => {
  it('is empty for a missing or blank description (the card says "No description provided")', () => {
    expect(descriptionPreview(null)).toEqual([]);
    expect(descriptionPreview(undefined)).toEqual([]);
    expect(descriptionPreview('  \n ')).toEqual([]);
  });

  it('keeps a short description on one line', () => {
    expect(descriptionPreview('Sleep and steps of night-shift nurses.')).toEqual([
      'Sleep and steps of night-shift nurses.',
    ]);
  });

  it('uses lines of 45 then 39 characters', () => {
    const text =
      'This study follows the daily step counts and resting heart rate of adults over twelve weeks.';
    const lines = descriptionPreview(text);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]?.length).toBeLessThanOrEqual(45);
    for (const line of lines.slice(1)) expect(line.length).toBeLessThanOrEqual(39);
    expect(lines.join(' ')).toBe(text);
    // The first line really uses the wider width.
    expect(lines[0]).toBe('This study follows the daily step counts and');
  });

  it('stops at 4 lines, the last trimmed to 36 characters plus an ellipsis', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const lines = descriptionPreview(text);
    expect(lines).toHaveLength(4);
    const last = lines[3] ?? '';
    expect(last.endsWith(ELLIPSIS)).toBe(true);
    expect(last.length).toBeLessThanOrEqual(36 + ELLIPSIS.length);
    expect(last.slice(0, -ELLIPSIS.length)).toBe(last.slice(0, -ELLIPSIS.length).trimEnd());
  });

  it('adds no ellipsis when the text fills exactly 4 lines', () => {
    const text = ['a'.repeat(45), 'b'.repeat(39), 'c'.repeat(39), 'd'.repeat(39)].join(' ');
    expect(descriptionPreview(text)).toEqual([
      'a'.repeat(45),
      'b'.repeat(39),
      'c'.repeat(39),
      'd'.repeat(39),
    ]);
  });

  it('trims a long unbroken word on the fourth line', () => {
    const lines = descriptionPreview('x'.repeat(300));
    expect(lines).toEqual(['x'.repeat(45), 'x'.repeat(39), 'x'.repeat(39), `${'x'.repeat(36)}...`]);
  });
});

describe('clampStudyName', () => {
  it('keeps a short name on one line', () => {
    expect(clampStudyName('Sleep Study')).toEqual(['Sleep Study']);
  });

  it('wraps a name into 2 lines of at most 28 characters', () => {
    const lines = clampStudyName('Heart Rate Variability in Marathon Runners');
    expect(lines).toEqual(['Heart Rate Variability in', 'Marathon Runners']);
  });

  it('cuts a longer name to 2 lines, the second ending in an ellipsis within 28 characters', () => {
    const lines = clampStudyName(
      'Longitudinal Assessment of Sleep Architecture and Daytime Activity in Shift Workers',
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]?.length).toBeLessThanOrEqual(28);
    expect(lines[1]?.endsWith(ELLIPSIS)).toBe(true);
    expect(lines[1]?.length).toBeLessThanOrEqual(28);
  });
});
