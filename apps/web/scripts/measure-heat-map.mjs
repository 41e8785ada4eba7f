// Measures the Adherence tab's heat map in Chromium with 500 participants × 90 days: the longest
// task (PerformanceObserver 'longtask') while it renders and while it scrolls, and the slowest
// frames; runs axe-core on the tab and on the participant charts page at 1280 and 390 px; and
// saves screenshots. The API is answered in the browser (no server): every call gets a fake
// answer shaped by the contracts. Run after `vite build`:
//   node scripts/measure-heat-map.mjs [--shots <dir>] [--participants 500] [--days 90]
// CHROMIUM_PATH picks the browser (default /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { AUTH_STORAGE_KEYS } from '@research/contracts';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
};
const PARTICIPANTS = Number(arg('participants', 500));
const DAYS = Number(arg('days', 90));
const SHOTS = arg('shots', null);
const PORT = Number(process.env.MEASURE_PORT ?? 4651);
const STUDY = '00000000-0000-4000-8000-000000000001';

// Deterministic pseudo-random numbers: the same map on every run.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

const dayList = (from, to) => {
  const days = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 864e5)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
};

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Kay',
  'Edsger',
  'Barbara',
  'Donald',
  'Frances',
  'Ken',
  'Radia',
];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'McNulty', 'Dijkstra', 'Liskov', 'Knuth', 'Allen'];
const REASONS = ['Google answered 503', 'Quota exhausted, retried later', 'Timed out after 30 s'];

function adherence(from, to) {
  const days = dayList(from, to);
  seed = 42;
  const participants = Array.from({ length: PARTICIPANTS }, (_, p) => {
    const wearer = random();
    const states = [];
    const wearMinutes = [];
    const steps = [];
    const reasons = {};
    const lastSyncDaysAgo = Math.floor(random() * random() * 6);
    days.forEach((_, i) => {
      const r = random();
      const fromEnd = days.length - 1 - i;
      let state = 'complete';
      if (fromEnd < lastSyncDaysAgo)
        state = fromEnd === lastSyncDaysAgo - 1 ? 'partial' : 'not_collected';
      else if (r < 0.02) state = 'failed';
      else if (r < 0.025) state = 'scope_missing';
      else if (r < 0.03) state = 'revoked';
      else if (r < 0.033) state = 'deleted_at_source';
      else if (r > wearer + 0.6) state = 'empty';
      states.push(state);
      const minutes =
        state === 'complete' || state === 'partial' ? Math.round(random() * 1300) : null;
      wearMinutes.push(state === 'empty' ? 0 : minutes);
      steps.push(minutes === null ? (state === 'empty' ? 0 : null) : Math.round(random() * 16000));
      if (state === 'failed') reasons[String(i)] = REASONS[i % REASONS.length];
    });
    const valid = wearMinutes.filter((m) => m !== null && m >= 600).length;
    return {
      id: `P${String(p + 1).padStart(16, '0')}`,
      participantId: `P${String(p + 1).padStart(16, '0')}`,
      name: `${FIRST[p % FIRST.length]} ${LAST[(p * 7) % LAST.length]} ${p + 1}`,
      enrolledAt: `${from}T00:00:00.000Z`,
      connection:
        p % 37 === 0 ? 'not_connected' : p % 53 === 0 ? 'needs_reauthorization' : 'connected',
      lastDeviceSyncAt: new Date(Date.now() - lastSyncDaysAgo * 864e5 - 3_600_000).toISOString(),
      batteryLevel: p % 3 === 0 ? null : Math.round(random() * 100),
      daysWithoutSync: lastSyncDaysAgo,
      atRisk: lastSyncDaysAgo >= 2,
      validDays: valid,
      eligibleDays: days.length,
      states,
      wearMinutes,
      steps,
      reasons,
    };
  });
  const atRisk = participants.filter((p) => p.atRisk).length;
  const valid = participants.reduce((s, p) => s + p.validDays, 0);
  return {
    success: true,
    from,
    to,
    days,
    rule: { validDayMinHours: 10, riskNoSyncDays: 2 },
    summary: {
      enrolled: PARTICIPANTS,
      connected: participants.filter((p) => p.connection === 'connected').length,
      atRisk,
      validDayPercent: (100 * valid) / (PARTICIPANTS * days.length),
    },
    participants,
  };
}

const user = {
  id: 'u-1',
  uid: 'u-1',
  email: 'ada@example.test',
  displayName: 'Ada Lovelace',
  photoURL: null,
  role: 'researcher',
};
const study = {
  id: STUDY,
  name: 'Sleep and Activity Study',
  description: null,
  duration: '12 weeks',
  studyCode: 'ABC234',
  status: 'active',
  participantCount: PARTICIPANTS,
  createdAt: '2026-01-05T10:00:00.000Z',
  role: 'main',
  ownerName: 'Ada Lovelace',
  hasPassword: true,
  collaborators: [],
  settings: {
    allowSelfEnrollment: false,
    requireVerification: true,
    dataRetentionDays: 365,
    removeDataDeletedAtSource: false,
    validDayMinHours: 10,
    riskNoSyncDays: 2,
    reminderNoSyncDays: null,
  },
};

function heartRate(date) {
  const start = Date.parse(`${date}T05:00:00Z`);
  const times = Array.from({ length: 2000 }, (_, i) => start + i * 43_200);
  const bpm = times.map((_, i) => Math.round(62 + 18 * Math.sin(i / 150) + 10 * random()));
  return {
    success: true,
    date,
    timeZone: 'America/New_York',
    sampleCount: 28_912,
    downsampling: 'lttb',
    times,
    bpm,
  };
}

function charts(from, to) {
  seed = 7;
  return {
    success: true,
    from,
    to,
    timeZone: 'America/New_York',
    days: dayList(from, to).map((date, i, all) => {
      const none = i === all.length - 1;
      const deep = Math.round(60 + random() * 40);
      const light = Math.round(200 + random() * 80);
      const rem = Math.round(60 + random() * 40);
      const awake = Math.round(10 + random() * 30);
      return {
        date,
        state: none ? 'partial' : 'complete',
        steps: Math.round(4000 + random() * 9000),
        restingHeartRateBpm: Math.round(58 + random() * 6),
        wearMinutes: Math.round(700 + random() * 600),
        sleepMinutes: deep + light + rem,
        sleepStages: { deep, light, rem, awake, asleep: 0 },
      };
    }),
  };
}

/** The fake API: the answers the pages need, by path. */
function answer(url) {
  const p = url.pathname;
  const q = url.searchParams;
  if (p === '/api/auth/verify-token') return { success: true, user };
  if (p === '/api/admin/check-master-status') return { success: true, isMasterAccount: false };
  if (p === '/api/auth/profile')
    return {
      success: true,
      researcher: {
        id: 'u-1',
        email: user.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        role: 'researcher',
        status: 'approved',
        institution: null,
        department: null,
        position: null,
        approvedAt: null,
        isMasterAccount: false,
        emailVerified: true,
      },
    };
  if (p === `/api/studies/${STUDY}`) return { success: true, study };
  if (p === `/api/studies/${STUDY}/stats`)
    return {
      success: true,
      stats: {
        participants: PARTICIPANTS,
        pendingParticipants: 0,
        members: 1,
        emails: 0,
        authorizedParticipants: PARTICIPANTS,
        lastEmailSentAt: null,
        atRisk: 37,
      },
    };
  if (p === `/api/studies/${STUDY}/adherence`) return adherence(q.get('from'), q.get('to'));
  if (p === `/api/studies/${STUDY}/digest`) return { success: true, enabled: true };
  if (p.endsWith('/info'))
    return {
      success: true,
      participant: {
        participantId: 'P0000000000000001',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.test',
        phoneNumber: null,
        studyCode: 'ABC234',
        status: 'enrolled',
        enrolledAt: '2026-01-07T10:00:00.000Z',
        authorizedAt: null,
        additionalInfo: null,
        documents: [],
        informationCompleted: true,
        informationCompletedAt: null,
      },
    };
  if (p.endsWith('/charts')) return charts(q.get('from'), q.get('to'));
  if (p.endsWith('/heart-rate')) return heartRate(q.get('date'));
  return null;
}

async function waitForServer(url) {
  for (let i = 0; i < 100; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
async function axe(page, label) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of bad)
    console.log(
      `  axe ${label}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  const others = violations.filter((v) => !bad.includes(v)).map((v) => `${v.id} (${v.impact})`);
  console.log(
    `axe ${label}: ${bad.length} serious/critical${others.length ? `; also ${others.join(', ')}` : ''}`,
  );
  return bad.length;
}

const preview = spawn(
  process.execPath,
  [
    path.join(here, '../../../node_modules/vite/bin/vite.js'),
    'preview',
    '--port',
    String(PORT),
    '--strictPort',
  ],
  { cwd: path.join(here, '..'), stdio: 'ignore' },
);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--disable-dev-shm-usage'],
});
let failures = 0;
try {
  const base = `http://localhost:${PORT}`;
  await waitForServer(base);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(
    ([keys, token, u]) => {
      sessionStorage.setItem(keys.token, token);
      sessionStorage.setItem(keys.user, JSON.stringify(u));
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries())
          window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
      }).observe({ type: 'longtask', buffered: true });
    },
    [AUTH_STORAGE_KEYS, 'measure-token-0123456789', user],
  );
  await context.route('**/api/**', async (route) => {
    const body = answer(new URL(route.request().url()));
    if (route.request().method() === 'PUT') {
      await route.fulfill({ json: { success: true, enabled: true } });
    } else if (body) await route.fulfill({ json: body });
    else
      await route.fulfill({
        status: 404,
        json: { success: false, error: 'Not found', message: 'Not found', code: 'NOT_FOUND' },
      });
  });
  const page = await context.newPage();
  const longest = () =>
    page.evaluate(() => {
      const tasks = window.__longTasks;
      window.__longTasks = [];
      return tasks.reduce((max, t) => Math.max(max, t.duration), 0);
    });

  // The study screen first, then the tab: what a researcher does.
  await page.goto(`${base}/researcher/study/${STUDY}`);
  await page.getByRole('tab', { name: /^Adherence/ }).waitFor();
  await longest();
  const opened = Date.now();
  // CSS selectors from here on: Playwright's role queries walk the whole page in the page's own
  // thread and would show up as long tasks of their own.
  await page.locator('[role="tab"]:has-text("Adherence")').click();
  await page.waitForSelector('[role="grid"] [role="gridcell"]');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  console.log(
    `open the tab (${PARTICIPANTS} × 28 days): ${Date.now() - opened} ms to the map, longest task ${await longest()} ms`,
  );

  await page.locator('button:has-text("90 days")').click();
  await page.waitForFunction(
    (n) => document.querySelectorAll('[role="grid"] [role="columnheader"]').length === n + 1,
    DAYS,
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  console.log(
    `switch to ${DAYS} days: longest task ${await longest()} ms; cells in the page: ${await page.locator('[role="gridcell"]').count()}`,
  );

  /** Scrolls the grid in steps, one per frame; the slowest frame and the longest task. */
  const scroll = (dy, dx, steps) =>
    page.evaluate(
      ([dy, dx, steps]) =>
        new Promise((resolve) => {
          const grid = document.querySelector('[role="grid"]');
          const frames = [];
          let last = performance.now();
          let i = 0;
          const step = (now) => {
            frames.push(now - last);
            last = now;
            if (i++ >= steps) {
              resolve({
                slowest: Math.max(...frames.slice(1)),
                frames: frames.length,
                over50: frames.filter((f) => f > 50).length,
              });
              return;
            }
            grid.scrollTop += dy;
            grid.scrollLeft += dx;
            requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
      [dy, dx, steps],
    );
  const down = await scroll(60, 0, Math.ceil((PARTICIPANTS * 24) / 60));
  console.log(
    `scroll down through ${PARTICIPANTS} rows: slowest frame ${down.slowest.toFixed(1)} ms of ${down.frames}, ${down.over50} over 50 ms, longest task ${await longest()} ms`,
  );
  const side = await scroll(-40, 25, 60);
  console.log(
    `scroll up and sideways: slowest frame ${side.slowest.toFixed(1)} ms, longest task ${await longest()} ms`,
  );
  const cdp = process.env.PROFILE ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  await page.locator('button:has-text("Steps")').click();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 100))));
  console.log(`metric to steps: longest task ${await longest()} ms`);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`  ${v.toFixed(1)} ms ${k}`);
  }
  await page.locator('button:has-text("Wear time")').click();

  // Keyboard: focus a cell and walk.
  await page.locator('[role="grid"]').evaluate((el) => {
    el.scrollTop = 0;
    el.scrollLeft = 0;
  });
  await page.locator('[role="grid"] [tabindex="0"]').focus();
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('PageDown');
  for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
  console.log(
    `keyboard: details say "${await page.getByTestId('heat-map-details').textContent()}", longest task ${await longest()} ms`,
  );

  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
    failures += await axe(page, `adherence tab at ${viewport.width} px`);
    if (SHOTS) {
      await page.screenshot({ path: path.join(SHOTS, `adherence-${viewport.width}.png`) });
      await page.screenshot({
        path: path.join(SHOTS, `adherence-${viewport.width}-full.png`),
        fullPage: true,
      });
      const map = page.locator('[role="grid"]').locator('xpath=..');
      await map.scrollIntoViewIfNeeded();
      await map.screenshot({ path: path.join(SHOTS, `adherence-${viewport.width}-map.png`) });
    }
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}/researcher/study/${STUDY}/participant/P0000000000000001`);
  await page.getByText(/Downsampled from/).waitFor({ timeout: 20_000 });
  await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
    failures += await axe(page, `charts page at ${viewport.width} px`);
    if (SHOTS)
      await page.screenshot({
        path: path.join(SHOTS, `charts-${viewport.width}.png`),
        fullPage: true,
      });
  }
} finally {
  await browser.close();
  preview.kill();
}
process.exitCode = failures > 0 ? 1 : 0;
