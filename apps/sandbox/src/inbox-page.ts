import type { FastifyInstance, FastifyReply } from 'fastify';
import { SIMULATED_ACCOUNTS } from './accounts.js';
import type { HealthConnection } from './health/connections.js';
import { hasHealthProfile, healthIdentity } from './health/data-generator.js';
import { escapeHtml, FAVICON_SVG, linkify, PAGE_CSP, renderPage } from './html.js';
import { HEALTH_SCOPE_PREFIX } from './oidc-scopes.js';
import type { CapturedMessage, MessageStore } from './store.js';

const CSS = `
header{background:#8c1515;color:#fff;padding:16px 24px;display:flex;align-items:center;gap:16px;flex-wrap:wrap}
header h1{margin:0;font-size:20px;font-weight:600}
header .meta{font-size:13px;opacity:.9}
header form{margin-left:auto;display:flex;gap:8px}
header input{padding:6px 10px;border-radius:6px;border:0;font:inherit;min-width:240px}
header button{padding:6px 12px;border-radius:6px;border:1px solid #fff;background:transparent;color:#fff}
header button.danger{background:#fff;color:#8c1515}
.wrap{max-width:1100px;margin:0 auto;padding:20px 24px 48px}
h2{font-size:16px;margin:24px 0 12px;color:#333}
.empty{background:#fff;border:1px dashed #c4c7c5;border-radius:12px;padding:32px;text-align:center;color:#5f6368}
article{background:#fff;border:1px solid #dadce0;border-radius:12px;margin:0 0 16px;overflow:hidden}
article .head{display:grid;grid-template-columns:auto 1fr auto;gap:4px 12px;padding:14px 16px;border-bottom:1px solid #eee;align-items:baseline}
.badge{font-size:12px;font-weight:600;letter-spacing:.04em;text-transform:uppercase;border-radius:999px;padding:2px 10px}
.badge.email{background:#e6f0f1;color:#00505c}
.badge.sms{background:#f9e7e7;color:#8c1515}
.subject{font-weight:600;word-break:break-word}
time{font-size:13px;color:#5f6368;white-space:nowrap}
.addr{grid-column:2 / 4;font-size:13px;color:#444;word-break:break-all}
.addr b{font-weight:500;color:#5f6368}
pre.text{margin:0;padding:14px 16px;white-space:pre-wrap;word-break:break-word;font-size:14px;line-height:1.5;background:#fcfcfd}
details{border-top:1px solid #eee}
summary{padding:8px 16px;cursor:pointer;font-size:13px;color:#0b57d0}
iframe{display:block;width:100%;height:420px;border:0;border-top:1px solid #eee;background:#fff;resize:vertical}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #dadce0;border-radius:12px;overflow:hidden;font-size:14px}
th,td{text-align:left;padding:10px 14px;border-bottom:1px solid #eee}
th{background:#f8f9fa;font-weight:600;color:#444}
td code{font-size:13px}
td{vertical-align:top}
.hint{font-size:13px;color:#5f6368}
ul.grants{list-style:none;margin:0;padding:0}
ul.grants li+li{margin-top:8px;padding-top:8px;border-top:1px dashed #e3e3e3}
.scopes{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0}
.scope{font-size:12px;background:#e8f0fe;color:#174ea6;border-radius:999px;padding:1px 8px}
.status{font-size:12px;font-weight:600}
.status.active{color:#188038}
.status.revoked{color:#a50e0e}
.status.expired{color:#b06000}
.muted{color:#5f6368;font-size:13px}
`;

// Reloads when a new message arrives, so a person waiting for a code sees it without refreshing.
const SCRIPT = `
(function(){
  var latest = document.body.getAttribute('data-latest') || '';
  var clear = document.getElementById('clear');
  if (clear) clear.addEventListener('click', function(){
    if (!confirm('Delete every captured message?')) return;
    fetch('/inbox/messages', { method: 'DELETE' }).then(function(){ location.reload(); });
  });
  setInterval(function(){
    if (document.hidden) return;
    fetch('/inbox/messages.json?limit=1&to=' + encodeURIComponent(new URLSearchParams(location.search).get('to') || ''), { cache: 'no-store' })
      .then(function(r){ return r.json(); })
      .then(function(d){
        var id = d.messages && d.messages[0] ? d.messages[0].id : '';
        if (id !== latest) location.reload();
      })
      .catch(function(){});
  }, 3000);
})();
`;

function formatTime(iso: string): string {
  const date = new Date(iso);
  return `${date.toLocaleString('en-US', {
    dateStyle: 'medium',
    timeStyle: 'medium',
    timeZone: 'UTC',
  })} UTC`;
}

/** The HTML body runs in a sandboxed frame: no scripts, no same-origin access, links open outside. */
function htmlFrame(html: string): string {
  const doc = `<base target="_blank"><meta http-equiv="Content-Security-Policy" content="script-src 'none'">${html}`;
  return `<details open><summary>HTML version</summary><iframe sandbox="allow-popups allow-popups-to-escape-sandbox" referrerpolicy="no-referrer" title="HTML body" srcdoc="${escapeHtml(doc)}"></iframe></details>`;
}

function renderMessage(m: CapturedMessage): string {
  const subject = m.channel === 'sms' ? 'Text message' : (m.subject ?? '(no subject)');
  return `<article id="${escapeHtml(m.id)}">
<div class="head">
  <span class="badge ${m.channel}">${m.channel === 'sms' ? 'SMS' : 'Email'}</span>
  <span class="subject">${escapeHtml(subject)}</span>
  <time datetime="${escapeHtml(m.receivedAt)}">${escapeHtml(formatTime(m.receivedAt))}</time>
  <span class="addr"><b>To</b> ${escapeHtml(m.to)} &nbsp; <b>From</b> ${escapeHtml(m.from)}</span>
</div>
${m.text ? `<pre class="text">${linkify(m.text)}</pre>` : ''}
${m.html ? htmlFrame(m.html) : ''}
</article>`;
}

/** Scopes as people read them: `sleep.readonly` rather than the whole URL. */
function shortScope(scope: string): string {
  if (scope.startsWith(HEALTH_SCOPE_PREFIX)) return scope.slice(HEALTH_SCOPE_PREFIX.length);
  return scope.replace('https://www.googleapis.com/auth/', '');
}

function renderGrant(c: HealthConnection, now: number): string {
  const expired = c.refreshExpiresAt !== null && Date.parse(c.refreshExpiresAt) <= now;
  const status = c.revokedAt
    ? `<span class="status revoked">Revoked ${escapeHtml(formatTime(c.revokedAt))}</span>`
    : expired
      ? '<span class="status expired">Refresh token expired (Testing mode)</span>'
      : '<span class="status active">Active</span>';
  const expiry =
    c.refreshExpiresAt && !c.revokedAt && !expired
      ? ` · refresh token expires ${escapeHtml(formatTime(c.refreshExpiresAt))}`
      : '';
  return `<li>${status}
<div class="scopes">${c.scopes.map((s) => `<span class="scope" title="${escapeHtml(s)}">${escapeHtml(shortScope(s))}</span>`).join('')}</div>
<div class="muted">Granted ${escapeHtml(formatTime(c.grantedAt))} to <code>${escapeHtml(c.clientId)}</code>${expiry}</div></li>`;
}

function renderAccounts(connections: HealthConnection[], now: number): string {
  const byEmail = new Map<string, HealthConnection[]>();
  for (const c of connections) byEmail.set(c.email, [...(byEmail.get(c.email) ?? []), c]);
  const people = [
    ...SIMULATED_ACCOUNTS.map((a) => ({ name: a.name, email: a.email, sub: a.sub })),
    ...[...byEmail.keys()]
      .filter((email) => !SIMULATED_ACCOUNTS.some((a) => a.email === email))
      .map((email) => ({ name: '', email, sub: '' })),
  ];
  return people
    .map((p) => {
      const grants = (byEmail.get(p.email) ?? []).slice().reverse();
      const health = hasHealthProfile(p.email)
        ? `<code>${escapeHtml(healthIdentity(p.email).healthUserId)}</code>`
        : '<span class="muted">no Google Health profile (ACCOUNT_NOT_LINKED)</span>';
      return `<tr><td>${escapeHtml(p.name || '—')}</td><td>${escapeHtml(p.email)}${
        p.sub ? `<div class="muted">sub <code>${escapeHtml(p.sub)}</code></div>` : ''
      }</td><td>${health}</td><td>${
        grants.length
          ? `<ul class="grants">${grants.map((g) => renderGrant(g, now)).join('\n')}</ul>`
          : '<span class="muted">Nothing connected</span>'
      }</td></tr>`;
    })
    .join('\n');
}

export interface InboxOptions {
  /** Consents recorded by the sandbox's Google issuer, oldest first. */
  connections: () => HealthConnection[];
  now: () => number;
}

function renderInbox(
  messages: CapturedMessage[],
  to: string,
  total: number,
  accountsHtml: string,
): string {
  const list = messages.length
    ? messages.map(renderMessage).join('\n')
    : `<div class="empty">${
        to
          ? `No messages to ${escapeHtml(to)}.`
          : 'No messages yet. Mail sent to the SMTP catcher and SMS sent to the Twilio endpoint appear here.'
      }</div>`;
  const body = `<header>
  <h1>Sandbox inbox</h1>
  <span class="meta">${total} captured message${total === 1 ? '' : 's'} · newest first · refreshes on new mail</span>
  <form method="get" action="/inbox">
    <input type="search" name="to" placeholder="Filter by recipient (e-mail or +E.164)" value="${escapeHtml(to)}" aria-label="Filter by recipient">
    <button type="submit">Filter</button>
    <button type="button" class="danger" id="clear">Clear all</button>
  </form>
</header>
<div class="wrap">
  <h2>Messages${to ? ` to ${escapeHtml(to)}` : ''}</h2>
  ${list}
  <h2>Simulated Google accounts</h2>
  <table>
    <thead><tr><th>Name</th><th>E-mail</th><th>Google Health user id</th><th>Connected apps</th></tr></thead>
    <tbody>
${accountsHtml}
    </tbody>
  </table>
  <p class="hint">Offered on the sandbox's "Choose an account" page. Any other address can be typed there too; addresses starting with <code>nohealth</code> have no Google Health data.</p>
</div>`;
  return renderPage({ title: 'Sandbox inbox', body, css: CSS, script: SCRIPT }).replace(
    '<body>',
    `<body data-latest="${escapeHtml(messages[0]?.id ?? '')}">`,
  );
}

function queryString(query: unknown, name: string): string {
  if (typeof query !== 'object' || query === null) return '';
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.trim() : '';
}

export function registerInbox(
  app: FastifyInstance,
  store: MessageStore,
  options: InboxOptions = { connections: () => [], now: () => Date.now() },
): void {
  app.get('/', async (_request, reply) => reply.redirect('/inbox', 302));

  const favicon = async (_request: unknown, reply: FastifyReply) =>
    reply
      .header('Content-Type', 'image/svg+xml')
      .header('Cache-Control', 'public, max-age=86400')
      .send(FAVICON_SVG);
  app.get('/favicon.svg', favicon);
  app.get('/favicon.ico', favicon);

  app.get('/inbox', async (request, reply) => {
    const to = queryString(request.query, 'to');
    const messages = store.list(to ? { to } : {});
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', PAGE_CSP)
      .header('Cache-Control', 'no-store')
      .send(
        renderInbox(
          messages,
          to,
          store.list().length,
          renderAccounts(options.connections(), options.now()),
        ),
      );
  });

  app.get('/inbox/messages.json', async (request, reply) => {
    const to = queryString(request.query, 'to');
    const channel = queryString(request.query, 'channel');
    const limit = Number.parseInt(queryString(request.query, 'limit'), 10);
    let messages = store.list({
      ...(to ? { to } : {}),
      ...(channel === 'email' || channel === 'sms' ? { channel } : {}),
    });
    if (Number.isFinite(limit) && limit > 0) messages = messages.slice(0, limit);
    reply.header('Cache-Control', 'no-store');
    return { messages };
  });

  app.delete('/inbox/messages', async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });
}
