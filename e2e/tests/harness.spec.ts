// Checks of the test harness itself: the MIME reader, code extraction, a message sent over SMTP to
// this run's capture server and read back through the mailbox, and the accessibility check failing
// on a page with serious violations (in the page and in a same-origin frame).
import net from 'node:net';
import {
  expect,
  expectNoSeriousA11yViolations,
  extractCode,
  test,
  uniqueEmail,
} from '../support/fixtures.ts';
import { parseMail } from '../support/mime.ts';
import { currentRun } from '../support/run.ts';

test.describe('harness', () => {
  test('reads quoted-printable multipart mail with encoded subjects', () => {
    const raw = [
      'From: Portolan <no-reply@portolan.test>',
      'To: Ann@Example.test',
      'Subject: =?UTF-8?Q?Your_activation_code_=E2=80=94_Portolan?=',
      'MIME-Version: 1.0',
      'Content-Type: multipart/alternative;',
      ' boundary="--_b1"',
      '',
      '----_b1',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Your code is 123456. Gr=C3=BC=C3=9Fe, a long line that was wrapped by the encod=',
      'er.',
      '----_b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('<p>Your code is <b>123456</b></p>').toString('base64'),
      '----_b1--',
      '',
    ].join('\r\n');
    const mail = parseMail(raw);
    expect(mail.subject).toBe('Your activation code — Portolan');
    expect(mail.from).toBe('no-reply@portolan.test');
    expect(mail.to).toEqual(['ann@example.test']);
    expect(mail.text).toBe(
      'Your code is 123456. Grüße, a long line that was wrapped by the encoder.',
    );
    expect(mail.html).toBe('<p>Your code is <b>123456</b></p>');
    expect(extractCode(mail.text)).toBe('123456');
  });

  test('extractCode wants exactly one 6-digit number', () => {
    expect(extractCode('Code: 004211 (valid 10 minutes, ref 12345, 2026-11-21)')).toBe('004211');
    expect(() => extractCode('no code here, 1234567 is seven')).toThrow(/found 0/);
    expect(() => extractCode('111111 or 222222')).toThrow(/found 2/);
  });

  test('the accessibility check fails on serious violations, in frames too', async ({
    page,
  }, testInfo) => {
    // A button without a name (critical) and grey on white text (serious), then the same only
    // inside a same-origin frame: both must fail the check that every page spec relies on.
    const bad = '<button></button><p style="color:#bbb;background:#fff">Faint text</p>';
    await page.setContent(`<html lang="en"><title>t</title><main>${bad}</main></html>`);
    const inPage = await expectNoSeriousA11yViolations(page, testInfo).catch((e: Error) => e);
    expect(String(inPage)).toMatch(/button-name/);
    expect(String(inPage)).toMatch(/color-contrast/);

    // The frame from the same origin as the page, as the app's own frames would be.
    await page.route('http://harness.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: route.request().url().endsWith('/inner')
          ? `<html lang="en"><title>f</title><main>${bad}</main></html>`
          : '<html lang="en"><title>t</title><main><iframe title="inner" src="/inner"></iframe></main></html>',
      }),
    );
    await page.goto('http://harness.test/');
    await expect(page.frameLocator('iframe').getByText('Faint text')).toBeVisible();
    const inFrame = await expectNoSeriousA11yViolations(page, testInfo).catch((e: Error) => e);
    expect(String(inFrame)).toMatch(/button-name/);
  });

  test('the SMTP capture stores what it receives for the mailbox', async ({ mailbox }) => {
    const to = uniqueEmail('harness');
    await sendRawMail(currentRun().smtpPort, 'sender@portolan.test', to, [
      'From: sender@portolan.test',
      `To: ${to}`,
      'Subject: Harness check: activation code',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Your code: 987654\n').toString('base64'),
    ]);
    const mail = await mailbox.waitFor(to.toUpperCase(), {
      subject: /activation code/,
      timeoutMs: 5_000,
    });
    expect(extractCode(mail.text)).toBe('987654');
    expect(mail.envelope.to).toEqual([to]);
  });
});

/** A minimal SMTP client: one message, no TLS, no auth. */
async function sendRawMail(port: number, from: string, to: string, lines: string[]): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  let buffer = '';
  const waiters: ((line: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\r\n')) !== -1) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      if (/^\d{3} /.test(line)) waiters.shift()?.(line);
    }
  });
  const reply = () => new Promise<string>((resolve) => waiters.push(resolve));
  const command = async (text: string, expected: RegExp) => {
    const pending = reply();
    socket.write(`${text}\r\n`);
    const line = await pending;
    if (!expected.test(line)) throw new Error(`SMTP ${text.split('\r\n')[0]}: ${line}`);
  };
  const greeting = await reply();
  expect(greeting).toMatch(/^220 /);
  await command('EHLO localhost', /^250 /);
  await command(`MAIL FROM:<${from}>`, /^250 /);
  await command(`RCPT TO:<${to}>`, /^250 /);
  await command('DATA', /^354 /);
  await command(
    `${lines.map((l) => (l.startsWith('.') ? `.${l}` : l)).join('\r\n')}\r\n.`,
    /^250 /,
  );
  await command('QUIT', /^221 /);
  socket.end();
}
