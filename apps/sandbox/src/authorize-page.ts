import type { SimulatedAccount } from './accounts.js';
import { escapeHtml, renderPage } from './html.js';
import { describeScope, IDENTITY_SCOPES } from './oidc-scopes.js';

const CSS = `
main{max-width:460px;margin:48px auto;padding:36px 40px;background:#fff;border:1px solid #dadce0;border-radius:12px}
.brand{display:flex;align-items:center;gap:8px;font-size:14px;color:#444}
.logo{width:22px;height:22px;border-radius:50%;background:conic-gradient(#ea4335 0 25%,#fbbc05 0 50%,#34a853 0 75%,#4285f4 0);flex:none}
h1{font-size:24px;font-weight:400;margin:20px 0 4px}
.sub{margin:0 0 20px;color:#444}
.client{color:#0b57d0;font-weight:500;word-break:break-all}
ul.accounts{list-style:none;margin:0;padding:0;border-top:1px solid #e3e3e3}
ul.accounts li{border-bottom:1px solid #e3e3e3}
button.account{display:flex;width:100%;align-items:center;gap:12px;padding:12px 8px;background:none;border:0;text-align:left;color:inherit}
button.account:hover,button.account:focus-visible{background:#f1f4f9;outline:none}
.avatar{width:32px;height:32px;border-radius:50%;color:#fff;display:grid;place-items:center;font-weight:600;flex:none}
.who{display:flex;flex-direction:column;min-width:0}
.who .name{font-weight:500}
.who .email{font-size:13px;color:#5f6368}
fieldset{border:1px solid #e3e3e3;border-radius:8px;margin:20px 0;padding:12px 16px}
legend{padding:0 4px;font-weight:500}
label{display:block;font-size:14px;margin:8px 0 4px}
input[type=email],input[type=text]{width:100%;padding:10px 12px;border:1px solid #747775;border-radius:6px;font:inherit}
.scope{display:flex;gap:8px;align-items:flex-start;margin:8px 0;font-size:14px}
.scope input{margin-top:3px}
.scope code{display:block;font-size:11px;color:#5f6368;word-break:break-all}
.actions{display:flex;justify-content:space-between;align-items:center;margin-top:24px}
.primary{background:#0b57d0;color:#fff;border:0;border-radius:20px;padding:9px 22px;font-weight:500}
.secondary{background:none;color:#0b57d0;border:0;padding:9px 12px;font-weight:500}
.error{background:#fce8e6;color:#a50e0e;border-radius:8px;padding:10px 12px;margin:12px 0}
.note{font-size:12px;color:#5f6368;margin-top:24px}
.code{font-size:14px;color:#5f6368}
`;

const AVATAR_COLORS = ['#00505c', '#8c1515', '#1a73e8', '#b06000', '#188038', '#9334e6'];

function avatar(account: { name: string; email: string }, index: number): string {
  const color = AVATAR_COLORS[index % AVATAR_COLORS.length] ?? '#1a73e8';
  const initial = (account.name.trim()[0] ?? account.email[0] ?? '?').toUpperCase();
  return `<span class="avatar" style="background:${color}" aria-hidden="true">${escapeHtml(initial)}</span>`;
}

export interface ChooseAccountView {
  requestId: string;
  clientId: string;
  scopes: string[];
  accounts: readonly SimulatedAccount[];
  loginHint: string | null;
  error?: string;
  customEmail?: string;
  customName?: string;
}

export function renderChooseAccount(view: ChooseAccountView): string {
  const accounts = view.accounts
    .map(
      (
        a,
        i,
      ) => `<li><button class="account" type="submit" name="account" value="${escapeHtml(a.email)}">
  ${avatar(a, i)}<span class="who"><span class="name">${escapeHtml(a.name)}</span><span class="email">${escapeHtml(a.email)}</span></span>
</button></li>`,
    )
    .join('\n');
  // Sign-in scopes are always granted; data scopes can be unticked, as on Google's granular consent.
  const optional = view.scopes.filter((s) => !IDENTITY_SCOPES.has(s));
  const scopeList = optional.length
    ? `<fieldset><legend>Access requested</legend>
${optional
  .map(
    (
      s,
    ) => `<label class="scope"><input type="checkbox" name="granted_scope" value="${escapeHtml(s)}" checked>
<span>${escapeHtml(describeScope(s))}<code>${escapeHtml(s)}</code></span></label>`,
  )
  .join('\n')}
</fieldset>`
    : '';
  const email = view.customEmail ?? view.loginHint ?? '';
  const body = `<div class="banner">Sandbox — simulated Google sign-in. No real Google account is used.</div>
<main>
  <div class="brand"><span class="logo" aria-hidden="true"></span>Sign in with Google</div>
  <h1>Choose an account</h1>
  <p class="sub">to continue to <span class="client">${escapeHtml(view.clientId)}</span></p>
  ${view.error ? `<div class="error" role="alert">${escapeHtml(view.error)}</div>` : ''}
  <form method="post" action="/o/oauth2/v2/auth/choose" novalidate>
    <input type="hidden" name="request" value="${escapeHtml(view.requestId)}">
    ${scopeList}
    <ul class="accounts">
${accounts}
    </ul>
    <fieldset>
      <legend>Use another account</legend>
      <label for="email">Email</label>
      <input id="email" name="email" type="email" autocomplete="off" value="${escapeHtml(email)}" placeholder="someone@example.test">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" autocomplete="off" value="${escapeHtml(view.customName ?? '')}" placeholder="First Last">
      <div class="actions" style="margin-top:12px;justify-content:flex-end"><button class="primary" type="submit" name="account" value="custom">Continue</button></div>
    </fieldset>
    <div class="actions">
      <button class="secondary" type="submit" name="account" value="cancel">Cancel</button>
    </div>
  </form>
  <p class="note">Choosing an account sends you back to the app with an authorization code. Cancel returns <code>error=access_denied</code>.</p>
</main>`;
  return renderPage({ title: 'Sign in - Google Accounts (sandbox)', body, css: CSS });
}

export function renderAuthError(error: {
  status: number;
  code: string;
  description: string;
}): string {
  const body = `<div class="banner">Sandbox — simulated Google sign-in.</div>
<main>
  <div class="brand"><span class="logo" aria-hidden="true"></span>Sign in with Google</div>
  <h1>Access blocked: Authorization Error</h1>
  <div class="error" role="alert">${escapeHtml(error.description)}</div>
  <p class="code">Error ${error.status}: ${escapeHtml(error.code)}</p>
  <p class="note">The app sent a request the sandbox issuer cannot accept. Registered clients are set with the sandbox's <code>google.clients</code> option; redirect URIs must be http://localhost, http://127.0.0.1 or http://[::1] addresses.</p>
</main>`;
  return renderPage({ title: 'Error 400 (sandbox)', body, css: CSS });
}
