import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, type Sandbox, startSandbox } from './index.js';
import { countSegments } from './twilio.js';

const SID = 'AC11111111111111111111111111111111';
const TOKEN = 'test-auth-token';
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({
    httpPort: 0,
    smtpPort: 0,
    twilio: { accountSid: SID, authToken: TOKEN },
  });
});

afterAll(async () => {
  await sandbox.close();
});

function send(fields: Record<string, string>, auth = `${SID}:${TOKEN}`, sid = SID) {
  return fetch(`${sandbox.httpUrl}/2010-04-01/Accounts/${sid}/Messages.json`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
    body: new URLSearchParams(fields),
  });
}

describe('Twilio Messages endpoint', () => {
  it('accepts a message and captures it as SMS', async () => {
    const response = await send({
      To: '+14155550100',
      From: '+15005550006',
      Body: 'Your code is 654321',
    });
    expect(response.status).toBe(201);
    const json = (await response.json()) as Record<string, unknown>;
    expect(json).toMatchObject({
      account_sid: SID,
      to: '+14155550100',
      from: '+15005550006',
      body: 'Your code is 654321',
      status: 'queued',
      num_segments: '1',
      direction: 'outbound-api',
      api_version: '2010-04-01',
      error_code: null,
    });
    expect(json.sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(json.uri).toBe(`/2010-04-01/Accounts/${SID}/Messages/${String(json.sid)}.json`);
    expect(String(json.date_created)).toMatch(
      /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} \+0000$/,
    );

    const inbox = await fetch(
      `${sandbox.httpUrl}/inbox/messages.json?to=${encodeURIComponent('+14155550100')}`,
    );
    const { messages } = (await inbox.json()) as { messages: Record<string, unknown>[] };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      id: json.sid,
      channel: 'sms',
      to: '+14155550100',
      from: '+15005550006',
      subject: null,
      text: 'Your code is 654321',
      html: null,
    });
    const waited = await sandbox.waitForMessage({ channel: 'sms', to: '+1 (415) 555-0100' });
    expect(waited.id).toBe(json.sid);
  });

  it('accepts a Messaging Service instead of From', async () => {
    const response = await send({ To: '+442071838750', MessagingServiceSid: 'MG123', Body: 'hi' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      status: 'accepted',
      messaging_service_sid: 'MG123',
      from: null,
    });
  });

  it('answers 401 with error 20003 for bad credentials or another account', async () => {
    const expected = {
      code: 20003,
      message: 'Authenticate',
      more_info: 'https://www.twilio.com/docs/errors/20003',
      status: 401,
    };
    const badToken = await send(
      { To: '+14155550100', From: '+15005550006', Body: 'x' },
      `${SID}:wrong`,
    );
    expect(badToken.status).toBe(401);
    expect(await badToken.json()).toEqual(expected);
    const otherPath = await send(
      { To: '+14155550100', From: '+15005550006', Body: 'x' },
      `${SID}:${TOKEN}`,
      SANDBOX_DEFAULTS.twilioAccountSid,
    );
    expect(otherPath.status).toBe(401);
    const none = await fetch(`${sandbox.httpUrl}/2010-04-01/Accounts/${SID}/Messages.json`, {
      method: 'POST',
      body: new URLSearchParams({ To: '+14155550100', From: '+15005550006', Body: 'x' }),
    });
    expect(none.status).toBe(401);
    expect(sandbox.messages({ channel: 'sms', to: '+14155550100' })).toHaveLength(1);
  });

  it('answers 400 with Twilio codes for a missing To or Body', async () => {
    const noTo = await send({ From: '+15005550006', Body: 'x' });
    expect(noTo.status).toBe(400);
    expect(await noTo.json()).toMatchObject({ code: 21604, status: 400 });
    const noBody = await send({ To: '+14155550100', From: '+15005550006' });
    expect(noBody.status).toBe(400);
    expect(await noBody.json()).toMatchObject({ code: 21602, status: 400 });
    const badTo = await send({ To: '555-0100', From: '+15005550006', Body: 'x' });
    expect(await badTo.json()).toMatchObject({ code: 21211, status: 400 });
  });

  it('counts segments like carriers do', () => {
    expect(countSegments('a'.repeat(160))).toBe(1);
    expect(countSegments('a'.repeat(161))).toBe(2);
    expect(countSegments('é'.repeat(160))).toBe(1);
    expect(countSegments('✓'.repeat(70))).toBe(1);
    expect(countSegments('✓'.repeat(71))).toBe(2);
  });
});
