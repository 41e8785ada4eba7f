/**
 * The one layout every e-mail of the platform uses, as HTML and as plain text. Values are plain
 * text: they are escaped here, so callers never build HTML by hand.
 */

export const BRAND_COLOR = '#8C1515';

export interface EmailContent {
  title: string;
  /** The summary line mail clients show next to the subject; hidden in the body. */
  preheader?: string | undefined;
  /** Plain-text paragraphs; a line break inside one is kept. */
  paragraphs: readonly string[];
  action?: { label: string; url: string } | undefined;
  footer?: string | undefined;
  /** A small link under the footer (a reminder's stop link), not a second button. */
  footerLink?: { label: string; url: string } | undefined;
}

export interface RenderedEmail {
  html: string;
  text: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

function paragraphHtml(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, '<br>');
}

/** Links in mail must be web links: a `javascript:` or `data:` URL would be a trap. */
function assertSafeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`E-mail action URL is not absolute: ${url}`);
  }
  if (!['http:', 'https:', 'mailto:'].includes(parsed.protocol)) {
    throw new Error(`E-mail action URL must use http(s) or mailto: ${url}`);
  }
  return url;
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

export function renderEmail(content: EmailContent): RenderedEmail {
  const actionUrl = content.action ? assertSafeUrl(content.action.url) : undefined;
  const title = escapeHtml(content.title);

  const paragraphs = content.paragraphs
    .map(
      (paragraph) =>
        `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#2e2d29;">${paragraphHtml(paragraph)}</p>`,
    )
    .join('\n');

  const action =
    content.action && actionUrl
      ? `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px;">
<tr><td style="border-radius:8px;background:${BRAND_COLOR};">
<a href="${escapeHtml(actionUrl)}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 24px;font-family:${FONT};font-size:16px;font-weight:600;color:#ffffff;text-decoration:none;border-radius:8px;">${escapeHtml(content.action.label)}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-size:13px;line-height:20px;color:#6b6b6b;">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(actionUrl)}" style="color:${BRAND_COLOR};word-break:break-all;">${escapeHtml(actionUrl)}</a></p>`
      : '';

  const preheader = content.preheader
    ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent;">${escapeHtml(content.preheader)}</div>`
    : '';

  const footerLinkUrl = content.footerLink ? assertSafeUrl(content.footerLink.url) : undefined;
  const footerLink =
    content.footerLink && footerLinkUrl
      ? `<br><a href="${escapeHtml(footerLinkUrl)}" style="color:${BRAND_COLOR};">${escapeHtml(content.footerLink.label)}</a>`
      : '';
  const footer =
    content.footer || footerLink
      ? `<tr><td style="padding:16px 32px 24px;font-family:${FONT};font-size:12px;line-height:18px;color:#6b6b6b;">${paragraphHtml(content.footer ?? '')}${footerLink}</td></tr>`
      : '';

  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body style="margin:0;padding:0;background:#f4f4f4;">
${preheader}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f4f4;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:12px;overflow:hidden;">
<tr><td style="background:${BRAND_COLOR};height:6px;font-size:0;line-height:0;">&nbsp;</td></tr>
<tr><td style="padding:32px 32px 8px;font-family:${FONT};">
<h1 style="margin:0 0 24px;font-size:22px;line-height:30px;color:${BRAND_COLOR};">${title}</h1>
${paragraphs}
${action}
</td></tr>
${footer}
</table>
</td></tr>
</table>
</body>
</html>
`;

  const textParts = [content.title, '', ...content.paragraphs.flatMap((p) => [p, ''])];
  if (content.action && actionUrl) textParts.push(`${content.action.label}: ${actionUrl}`, '');
  if (content.footer || content.footerLink) textParts.push('--');
  if (content.footer) textParts.push(content.footer, '');
  if (content.footerLink && footerLinkUrl)
    textParts.push(`${content.footerLink.label}: ${footerLinkUrl}`, '');
  const text = `${textParts.join('\n').trimEnd()}\n`;

  return { html, text };
}

/** The wearable reauthorization e-mail (sent at most once a day per participant). */
export function reauthorizationEmail(input: {
  studyName: string;
  participantId: string;
  reauthorizeUrl: string;
  texts: {
    subject: string;
    title: string;
    intro: (studyName: string) => string;
    instruction: string;
    participantIdLine: (participantId: string) => string;
    action: string;
    footer: string;
  };
}): RenderedEmail & { subject: string } {
  const { texts } = input;
  return {
    subject: texts.subject,
    ...renderEmail({
      title: texts.title,
      preheader: texts.title,
      paragraphs: [
        texts.intro(input.studyName),
        texts.instruction,
        texts.participantIdLine(input.participantId),
      ],
      action: { label: texts.action, url: input.reauthorizeUrl },
      footer: texts.footer,
    }),
  };
}
