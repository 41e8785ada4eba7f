import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3900);
export const SANDBOX_URL = `http://localhost:${E2E_PORT + 1}`;
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

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

interface InboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

/** Waits for a captured e-mail to the address and returns the newest. */
export async function latestMail(page: Page, to: string): Promise<InboxMessage> {
  let found: InboxMessage | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `${SANDBOX_URL}/inbox/messages.json?to=${encodeURIComponent(to)}`,
        );
        const { messages } = (await response.json()) as { messages: InboxMessage[] };
        found = messages[0];
        return messages.length;
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
