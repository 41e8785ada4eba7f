import { once } from 'node:events';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { renderEmail } from './mail-templates.js';
import { createMailer, MailDeliveryError, type Mailer } from './mailer.js';

interface Received {
  envelopeFrom: string;
  envelopeTo: string[];
  mail: ParsedMail;
}

interface Relay {
  url: string;
  received: Received[];
  stop(): Promise<void>;
}

const smtpError = (message: string, responseCode: number) =>
  Object.assign(new Error(message), { responseCode });

/** A real SMTP server on a free loopback port; `rejectRcpt` decides a reply per recipient. */
async function startRelay(
  rejectRcpt: (address: SMTPServerAddress) => Error | undefined = () => undefined,
): Promise<Relay> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(rejectRcpt(address) ?? null);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            mail,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function listenOnFreePort(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function mailerFor(url: string, connectionTimeoutMs?: number): Mailer {
  const mailer = createMailer({
    smtpUrl: url,
    from: '"Research Platform" <no-reply@research.test>',
    connectionTimeoutMs,
  });
  cleanups.push(() => mailer.close());
  return mailer;
}

async function catchError(promise: Promise<unknown>): Promise<MailDeliveryError> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  return error as MailDeliveryError;
}

const message = {
  subject: 'Your verification code',
  text: 'Your code is 123456.\n',
  html: '<p>Your code is <b>123456</b>.</p>',
};

describe('createMailer', () => {
  it('delivers a message with subject, text, HTML and every recipient to a real SMTP server', async () => {
    const relay = await startRelay();
    cleanups.push(relay.stop);
    const mailer = mailerFor(relay.url);
    await mailer.verify();

    const sent = await mailer.send({
      ...message,
      to: ['alice@example.org', 'bob@example.org'],
      replyTo: 'owner@example.org',
    });

    expect(sent.messageId).toMatch(/^<.+@.+>$/);
    expect(sent.accepted).toEqual(['alice@example.org', 'bob@example.org']);
    expect(sent.rejected).toEqual([]);
    expect(relay.received).toHaveLength(1);
    const [{ envelopeFrom, envelopeTo, mail }] = relay.received as [Received];
    expect(envelopeFrom).toBe('no-reply@research.test');
    expect(envelopeTo).toEqual(['alice@example.org', 'bob@example.org']);
    expect(mail.subject).toBe('Your verification code');
    expect(mail.text).toBe('Your code is 123456.\n');
    expect(mail.html).toBe('<p>Your code is <b>123456</b>.</p>');
    expect(mail.messageId).toBe(sent.messageId);
    expect(mail.from?.value).toEqual([
      { address: 'no-reply@research.test', name: 'Research Platform' },
    ]);
    expect(mail.replyTo?.value[0]?.address).toBe('owner@example.org');
  });

  it('sends a rendered template with its action link intact', async () => {
    const relay = await startRelay();
    cleanups.push(relay.stop);
    const email = renderEmail({
      title: 'You are invited',
      paragraphs: ['Join the study "Sleep & Steps".'],
      action: { label: 'Open the study', url: 'https://research.test/studies/1?x=1&y=2' },
    });
    await mailerFor(relay.url).send({ to: 'carol@example.org', subject: 'Invitation', ...email });
    const mail = relay.received[0]?.mail;
    expect(mail?.text).toContain('Open the study: https://research.test/studies/1?x=1&y=2');
    expect(mail?.html).toContain('href="https://research.test/studies/1?x=1&amp;y=2"');
    expect(mail?.html).toContain('Join the study &quot;Sleep &amp; Steps&quot;.');
  });

  it('reports recipients the relay refused while delivering to the others', async () => {
    const relay = await startRelay((address) =>
      address.address.startsWith('ghost') ? smtpError('No such user', 550) : undefined,
    );
    cleanups.push(relay.stop);
    const sent = await mailerFor(relay.url).send({
      ...message,
      to: ['alice@example.org', 'ghost@example.org'],
    });
    expect(sent.accepted).toEqual(['alice@example.org']);
    expect(sent.rejected).toEqual(['ghost@example.org']);
    expect(relay.received[0]?.envelopeTo).toEqual(['alice@example.org']);
  });

  it('fails transiently and fast when the relay is down (connection refused)', async () => {
    const probe = createServer();
    const port = await listenOnFreePort(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const mailer = mailerFor(`smtp://127.0.0.1:${port}`);
    const started = Date.now();
    const error = await catchError(mailer.send({ ...message, to: 'alice@example.org' }));
    expect(error.transient).toBe(true);
    expect(error.message).toMatch(/^Mail delivery failed/);
    expect(Date.now() - started).toBeLessThan(5_000);

    const verifyError = await catchError(mailer.verify());
    expect(verifyError.transient).toBe(true);
  });

  it('fails transiently after the connection timeout when the relay never greets', async () => {
    const sockets = new Set<Socket>();
    // Accepts the TCP connection and then says nothing, like a hung relay.
    const silent = createServer((socket) => sockets.add(socket));
    const port = await listenOnFreePort(silent);
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const started = Date.now();
    const error = await catchError(
      mailerFor(`smtp://127.0.0.1:${port}`, 500).send({ ...message, to: 'alice@example.org' }),
    );
    expect(error.transient).toBe(true);
    expect(error.code).toBe('ETIMEDOUT');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('fails permanently when the relay rejects the recipient with 550', async () => {
    const relay = await startRelay((address) =>
      smtpError(`Mailbox unavailable <${address.address}>`, 550),
    );
    cleanups.push(relay.stop);
    const error = await catchError(
      mailerFor(relay.url).send({ ...message, to: 'nobody@example.org' }),
    );
    expect(error.transient).toBe(false);
    expect(error.responseCode).toBe(550);
    expect(error.code).toBe('EENVELOPE');
    expect(error.response).toMatch(/^550 /);
    // Relays quote addresses in replies; the message stays free of them.
    expect(error.message).not.toContain('nobody@example.org');
    expect(error.message).toMatch(/\(EENVELOPE, SMTP 550, at RCPT TO\)$/);
    expect(relay.received).toHaveLength(0);
  });

  it('fails transiently when the relay defers the recipient with 450', async () => {
    const relay = await startRelay(() => smtpError('Mailbox busy, try later', 450));
    cleanups.push(relay.stop);
    const error = await catchError(
      mailerFor(relay.url).send({ ...message, to: 'busy@example.org' }),
    );
    expect(error.transient).toBe(true);
    expect(error.responseCode).toBe(450);
  });

  it('refuses a message without recipients', async () => {
    const error = await catchError(mailerFor('smtp://127.0.0.1:9').send({ ...message, to: [] }));
    expect(error.transient).toBe(false);
  });
});
