import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Locator, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3900);
export const SANDBOX_URL = `http://localhost:${E2E_PORT + 1}`;
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * `fetch` on a connection of its own. Node's fetch keeps idle connections and reuses them; when
 * the server closes one at its keep-alive timeout just as the next call goes out on it, that call
 * fails with "other side closed" (it failed a CI run once). The specs make few calls, so a fresh
 * connection each costs nothing and removes the race.
 */
export function fetchNew(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('Connection', 'close');
  return fetch(input, { ...init, headers });
}

let counter = 0;
/** A fresh address per call, unique across runs. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}

export const PASSWORD = 'correct-horse-1';

export async function signUp(page: Page, name: string, email: string, password = PASSWORD) {
  await page.goto('/researcher/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  // Applications need a confirmed address: follow the link of the confirmation e-mail, then
  // reload so the page knows (only once the sign-up went through, i.e. the form was left).
  await expect(page).toHaveURL(/\/researcher\/register$/);
  await confirmEmailViaInbox(email);
  await page.reload();
}

/**
 * Reads the confirmation e-mail sent at sign-up from the sandbox inbox and follows its link
 * (POST /api/auth/confirm-email with the link's token, as the /confirm-email page does).
 */
export async function confirmEmailViaInbox(email: string): Promise<void> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetchNew(
          `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(email)}`,
        );
        const { messages } = (await response.json()) as { messages: { text: string }[] };
        link = messages
          .map(
            (message) =>
              /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(message.text)?.[0],
          )
          .find(Boolean);
        return Boolean(link);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  const token = new URL(link as string).searchParams.get('token');
  const response = await fetchNew(`http://localhost:${E2E_PORT}/api/auth/confirm-email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(response.status, await response.text()).toBe(200);
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/researcher/auth');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: /^Account menu for / }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('banner').getByRole('link', { name: 'Researcher Login' }),
  ).toBeVisible();
}

/** Creates a master account through the admin CLI, against this run's database. */
export function createMaster(email: string, password: string) {
  execFileSync(
    'npm',
    ['run', 'admin', '--', 'create-master', '--email', email, '--password', password],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PORT: String(E2E_PORT) },
      stdio: 'pipe',
    },
  );
}

/** `npm run admin -- add-participant` against this run's server; returns the new participant id. */
export function addParticipant(
  studyCode: string,
  person: { email: string; firstName: string; lastName: string; phone?: string },
): string {
  const output = execFileSync(
    'npm',
    [
      'run',
      '--silent',
      'admin',
      '--',
      'add-participant',
      '--study-code',
      studyCode,
      '--email',
      person.email,
      '--first-name',
      person.firstName,
      '--last-name',
      person.lastName,
      ...(person.phone ? ['--phone', person.phone] : []),
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, PORT: String(E2E_PORT) },
      encoding: 'utf8',
    },
  );
  const id = /participant (P[0-9a-f]{16})/.exec(output)?.[1];
  if (!id) throw new Error(`add-participant said: ${output}`);
  return id;
}

interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/**
 * Waits for a captured e-mail to the address (whose subject contains `subject`, when given) and
 * returns the newest. Sign-up mails a confirmation link too, so tests after another mail say which.
 */
export async function latestMail(page: Page, to: string, subject?: string): Promise<InboxMessage> {
  let found: InboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(to)}`,
        );
        const { messages } = (await response.json()) as { messages: InboxMessage[] };
        const wanted = subject ? messages.filter((m) => m.subject.includes(subject)) : messages;
        found = wanted[0];
        return wanted.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(0);
  if (!found) throw new Error(`No mail to ${to}`);
  return found;
}

export async function shot(
  page: Page,
  testInfo: import('@playwright/test').TestInfo,
  name: string,
) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** The full-page shot at the current width, then the same page at a phone's 390 px. */
export async function shotsAtBothWidths(
  page: Page,
  testInfo: import('@playwright/test').TestInfo,
  name: string,
) {
  await shot(page, testInfo, name);
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, testInfo, `${name}-390`);
  if (desktop) await page.setViewportSize(desktop);
}

/** A small but real one-page PDF, for upload tests (file-type sniffing needs the real header). */
export function samplePdf(text = 'Proof of affiliation'): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface ApiApplicant {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
  applicationId: string;
}

/**
 * Registers an account and submits its researcher application straight through the API
 * (POST /api/auth/register, then POST /api/admin/researcher-applications), as JSON or, when a
 * document is given, as multipart with the file in the `documents` field.
 */
export async function createApplicantViaApi(
  request: import('@playwright/test').APIRequestContext,
  options: {
    firstName: string;
    lastName: string;
    description?: string;
    document?: { name: string; mimeType: string; buffer: Buffer };
  },
): Promise<ApiApplicant> {
  const email = uniqueEmail(options.lastName.toLowerCase());
  const displayName = `${options.firstName} ${options.lastName}`;
  const registered = await request.post('/api/auth/register', {
    data: { email, password: PASSWORD, displayName },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const { token } = (await registered.json()) as { token: string };
  await confirmEmailViaInbox(email);
  const fields: Record<string, string> = {
    firstName: options.firstName,
    lastName: options.lastName,
    email,
    dateOfBirth: '1988-04-12',
    phoneNumber: '(555) - 201 - 3344',
    institution: 'Northfield University',
    position: 'Postdoctoral Fellow',
    department: 'Cardiology',
    researchArea: 'Sleep and heart rate',
    ...(options.description ? { description: options.description } : {}),
  };
  const headers = { Authorization: `Bearer ${token}` };
  const submitted = options.document
    ? await request.post('/api/admin/researcher-applications', {
        headers,
        multipart: { ...fields, documents: options.document },
      })
    : await request.post('/api/admin/researcher-applications', { headers, data: fields });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const { applicationId } = (await submitted.json()) as { applicationId: string };
  return { ...options, email, password: PASSWORD, token, applicationId };
}

/** Signs in through the API and returns the session token. */
export async function apiToken(
  request: import('@playwright/test').APIRequestContext,
  email: string,
  password: string,
): Promise<string> {
  const response = await request.post('/api/auth/login', { data: { email, password } });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

// ---------------------------------------------------------------------------------------------
// Accounts through the API (studies spec): quicker than the screens that have their own specs.

export const APP_URL = `http://localhost:${E2E_PORT}`;

/** A JSON call to the app's API, optionally with a bearer token; a non-2xx answer throws. */
export async function apiJson<T>(
  path: string,
  options: { method?: string; body?: unknown; token?: string } = {},
): Promise<T> {
  const response = await fetchNew(`${APP_URL}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      Accept: 'application/json',
      ...(options.body !== undefined && { 'Content-Type': 'application/json' }),
      ...(options.token && { Authorization: `Bearer ${options.token}` }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const payload = (await response.json()) as T;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(payload)}`);
  return payload;
}

/** Signs up through POST /api/auth/register and submits a researcher application. */
export async function registerAndApply(
  name: string,
  email: string,
  password = PASSWORD,
): Promise<{ token: string; applicationId: string }> {
  const { token } = await apiJson<{ token: string }>('/api/auth/register', {
    method: 'POST',
    body: { email, password, displayName: name },
  });
  await confirmEmailViaInbox(email);
  const [firstName = name, ...rest] = name.split(' ');
  const { applicationId } = await apiJson<{ applicationId: string }>(
    '/api/admin/researcher-applications',
    {
      method: 'POST',
      token,
      body: {
        firstName,
        lastName: rest.join(' ') || 'Researcher',
        email,
        dateOfBirth: '1985-01-01',
        phoneNumber: '(555) - 555 - 0100',
        institution: 'Stanford University',
        position: 'Research Scientist',
      },
    },
  );
  return { token, applicationId };
}

/** The master signs in through the API and approves the application. */
export async function approveApplication(
  masterEmail: string,
  masterPassword: string,
  applicationId: string,
) {
  const { token } = await apiJson<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email: masterEmail, password: masterPassword },
  });
  await apiJson(`/api/admin/researcher-applications/${applicationId}/approve`, {
    method: 'POST',
    token,
    body: {},
  });
}

/** Signs in through the API (no browser context needed) and returns the session token. */
export async function loginToken(email: string, password = PASSWORD): Promise<string> {
  const { token } = await apiJson<{ token: string }>('/api/auth/login', {
    method: 'POST',
    body: { email, password },
  });
  return token;
}

/** A researcher the master approved: sign-up, confirmed address, application, approval. */
export async function approvedResearcher(
  master: { email: string; password: string },
  name: string,
  email: string,
) {
  const { applicationId } = await registerAndApply(name, email);
  await approveApplication(master.email, master.password, applicationId);
}

/**
 * A first wearable connection over HTTP: the consent link the study's researcher asks for, the
 * sandbox Google's consent with every scope offered, then the callback call.
 */
export async function connectOverHttp(options: {
  participantId: string;
  studyCode: string;
  /** The researcher's token. */
  token: string;
  /** The consent form's account fields (a preset account, or a custom one with e-mail/name). */
  choice: Record<string, string>;
}) {
  const { participantId, studyCode, token, choice } = options;
  const params = new URLSearchParams({ participantId, studyCode });
  const { authUrl } = await apiJson<{ authUrl: string }>(`/api/fitbit/auth-url?${params}`, {
    token,
  });
  const consentPage = await (await fetchNew(authUrl, { redirect: 'manual' })).text();
  const form = new URLSearchParams({
    request: /name="request" value="([^"]+)"/.exec(consentPage)?.[1] ?? '',
    ...choice,
  });
  for (const m of consentPage.matchAll(/name="granted_scope" value="([^"]+)"/g)) {
    form.append('granted_scope', m[1] ?? '');
  }
  const chosen = await fetchNew(`${new URL(authUrl).origin}/o/oauth2/v2/auth/choose`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  const back = new URL(chosen.headers.get('location') ?? '');
  await apiJson('/api/fitbit/callback', {
    method: 'POST',
    body: {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      participantId,
    },
  });
}

/** The page itself does not scroll sideways: anything wide scrolls inside its own frame. */
export async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.scrollingElement?.scrollWidth ?? 0,
    screen: window.innerWidth,
  }));
  expect(
    widths.page,
    `the page is ${widths.page} px wide on a ${widths.screen} px screen`,
  ).toBeLessThanOrEqual(widths.screen);
}

/**
 * The element can be read where it is: on the screen, not cut off by a frame that scrolls or
 * clips (a table scrolled sideways), and not hidden under something else (a pinned column).
 * It is brought into view as a reader would, up and down only: the window, and the frames that
 * scroll vertically (a dialog's content); never a frame sideways.
 */
export async function expectFullyShown(locator: Locator) {
  await expect(locator).toBeVisible();
  const problem = await locator.evaluate((element) => {
    for (let frame = element.parentElement; frame; frame = frame.parentElement) {
      const { overflowY } = getComputedStyle(frame);
      if (
        (overflowY !== 'auto' && overflowY !== 'scroll') ||
        frame.scrollHeight <= frame.clientHeight
      )
        continue;
      const inner = element.getBoundingClientRect();
      const edge = frame.getBoundingClientRect();
      frame.scrollTop += inner.top - edge.top - (frame.clientHeight - inner.height) / 2;
    }
    const first = element.getBoundingClientRect();
    window.scrollBy(0, first.top - window.innerHeight / 2);
    const box = element.getBoundingClientRect();
    if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
      return `outside the screen (${Math.round(box.left)}–${Math.round(box.right)} px)`;
    for (let frame = element.parentElement; frame; frame = frame.parentElement) {
      if (getComputedStyle(frame).overflowX === 'visible') continue;
      const edge = frame.getBoundingClientRect();
      if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5)
        return `cut off by its frame (${frame.tagName.toLowerCase()} ${Math.round(edge.left)}–${Math.round(edge.right)} px)`;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === element || element.contains(hit) || hit.contains(element)))
      return `covered by ${hit?.tagName.toLowerCase() ?? 'nothing'}`;
    return null;
  });
  expect(problem, `"${await locator.innerText()}" is not fully shown`).toBeNull();
}

export const SLEEP_SCOPE = 'https://www.googleapis.com/auth/googlehealth.sleep.readonly';

/** On the sandbox's Google page: untick the given scopes, then pick the account. */
export async function consent(page: Page, account: string, untick: string[] = []) {
  await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
  for (const scope of untick)
    await page.locator(`input[name="granted_scope"][value="${scope}"]`).uncheck();
  await page.getByRole('button', { name: new RegExp(account.replace(/\./g, '\\.')) }).click();
}

/** The sandbox's tracker of `account` syncs; `until` (RFC 3339) sets where it synced to, else now. */
export async function deviceSync(account: string, until?: string) {
  const response = await fetchNew(`${SANDBOX_URL}/__admin/health/sync`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: account, ...(until ? { until } : {}) }),
  });
  const text = await response.text();
  expect(response.ok, text).toBe(true);
  return JSON.parse(text) as { syncedUntil: string | null; notifications: number };
}
