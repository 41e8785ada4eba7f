const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and for quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/g;

/** Escapes plain text and turns http(s) URLs into links that open in a new tab. */
export function linkify(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    // Trailing punctuation usually ends the sentence, not the URL.
    const url = match[0].replace(/[.,;:!?)\]]+$/, '');
    const start = match.index;
    out += escapeHtml(text.slice(last, start));
    out += `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${escapeHtml(url)}</a>`;
    last = start + url.length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Inline styles shared by every page; the sandbox serves no external assets. */
const BASE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f1f1f;background:#f3f4f6}
a{color:#0b57d0}
h1,h2,h3{line-height:1.25}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
button{font:inherit;cursor:pointer}
.banner{background:#00505c;color:#fff;padding:6px 16px;font-size:13px}
`;

export interface PageOptions {
  title: string;
  body: string;
  css?: string;
  script?: string;
}

/**
 * Content-Security-Policy for sandbox pages: nothing loads from anywhere but this page itself.
 * `formTargets` are where a form may end up (the consent form redirects to the app's callback).
 * CSP host sources cannot name IPv6 literals ("http://[::1]:*" is invalid and logs an error).
 */
export function pageCsp(formTargets: readonly string[] = []): string {
  // 'none' adds no target, and next to 'self' it would be an invalid source list.
  const targets = [...new Set(formTargets)].filter((target) => target !== "'none'").join(' ');
  return `default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; form-action 'self'${targets ? ` ${targets}` : ''}; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'`;
}

export const PAGE_CSP = pageCsp();

/** The form-action source for a redirect URI: its origin, or the scheme for an IPv6 host. */
export function formTargetFor(redirectUri: string): string {
  try {
    const url = new URL(redirectUri);
    return url.hostname.startsWith('[') ? url.protocol : url.origin;
  } catch {
    return "'none'";
  }
}

/** A small SVG icon, so browsers stop asking for a missing /favicon.ico. */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#00505c"/><path d="M8 11h16v11H8z" fill="none" stroke="#fff" stroke-width="2.2"/><path d="M8 11l8 6 8-6" fill="none" stroke="#fff" stroke-width="2.2"/></svg>';

export function renderPage({ title, body, css = '', script }: PageOptions): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${css}</style>
</head>
<body>
${body}
${script ? `<script>${script}</script>` : ''}
</body>
</html>
`;
}
