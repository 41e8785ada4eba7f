import { describe, expect, it } from 'vitest';
import { BRAND_COLOR, escapeHtml, renderEmail } from './mail-templates.js';

describe('renderEmail', () => {
  const email = renderEmail({
    title: 'Invitation to <Sleep & Steps>',
    preheader: 'Dr. "O\'Brien" invited you',
    paragraphs: ['Hello <script>alert(1)</script>,', 'Line one\nLine two'],
    action: { label: 'Join <now>', url: 'https://research.test/join?code=a"b&c=<d>' },
    footer: 'Sent by the Research Platform & friends.',
  });

  it('lays out a branded HTML document', () => {
    expect(email.html).toMatch(/^<!DOCTYPE html>/);
    expect(email.html).toContain(BRAND_COLOR);
    expect(BRAND_COLOR).toBe('#8C1515');
    expect(email.html).toContain('<title>Invitation to &lt;Sleep &amp; Steps&gt;</title>');
    expect(email.html).toContain('Dr. &quot;O&#39;Brien&quot; invited you');
    expect(email.html).toContain('Line one<br>Line two');
    expect(email.html).toContain('Sent by the Research Platform &amp; friends.');
  });

  it('escapes every interpolated value', () => {
    expect(email.html).not.toContain('<script>');
    expect(email.html).toContain('Hello &lt;script&gt;alert(1)&lt;/script&gt;,');
    expect(email.html).toContain('>Join &lt;now&gt;</a>');
    expect(email.html).toContain('href="https://research.test/join?code=a&quot;b&amp;c=&lt;d&gt;"');
    expect(email.html).not.toContain('a"b');
  });

  it('writes a plain-text version with the same content and the action link', () => {
    expect(email.text).toBe(
      [
        'Invitation to <Sleep & Steps>',
        '',
        'Hello <script>alert(1)</script>,',
        '',
        'Line one\nLine two',
        '',
        'Join <now>: https://research.test/join?code=a"b&c=<d>',
        '',
        '--',
        'Sent by the Research Platform & friends.',
        '',
      ].join('\n'),
    );
  });

  it('renders without the optional parts', () => {
    const minimal = renderEmail({ title: 'Hi', paragraphs: ['Just text.'] });
    expect(minimal.text).toBe('Hi\n\nJust text.\n');
    expect(minimal.html).not.toContain('href=');
    expect(minimal.html).not.toContain('display:none');
  });

  it('refuses action links that are not web links', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', '/relative/path']) {
      expect(() =>
        renderEmail({ title: 't', paragraphs: [], action: { label: 'x', url } }),
      ).toThrow(/E-mail action URL/);
    }
  });

  it('escapes the five HTML special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});
