// A local SMTP server for the browser tests: accepts every message (no TLS, no auth) on
// 127.0.0.1:$SMTP_CAPTURE_PORT and stores each one as JSON (plus the raw .eml) in
// $SMTP_CAPTURE_DIR, which the tests' `mailbox` fixture reads. Started by playwright.config.ts as
// a webServer; stops on SIGTERM/SIGINT.
//
//   SMTP_CAPTURE_PORT=2626 SMTP_CAPTURE_DIR=/tmp/mail node e2e/support/smtp-capture.ts
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { parseMail } from './mime.ts';

export interface CapturedMail {
  id: string;
  receivedAt: string;
  /** SMTP envelope: the real recipients, lower-cased. */
  envelope: { from: string; to: string[] };
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

export function startSmtpCapture(
  port: number,
  dir: string,
  host = '127.0.0.1',
): Promise<SMTPServer> {
  mkdirSync(dir, { recursive: true });
  let seq = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    banner: 'portolan e2e capture',
    size: 25 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const parsed = parseMail(raw);
          const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const mail: CapturedMail = {
            id: `${Date.now()}-${String(++seq).padStart(5, '0')}-${randomUUID().slice(0, 8)}`,
            receivedAt: new Date().toISOString(),
            envelope: {
              from: envelopeFrom.toLowerCase(),
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            },
            from: parsed.from,
            to: parsed.to,
            subject: parsed.subject,
            text: parsed.text,
            html: parsed.html,
          };
          // Write then rename, so a reader never sees half a file.
          writeFileSync(path.join(dir, `${mail.id}.eml`), raw);
          const tmp = path.join(dir, `.${mail.id}.json.tmp`);
          writeFileSync(tmp, JSON.stringify(mail, null, 2));
          renameSync(tmp, path.join(dir, `${mail.id}.json`));
          console.log(`captured mail to ${mail.envelope.to.join(', ')}: ${mail.subject}`);
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      server.on('error', (error) => console.error('smtp capture:', error));
      resolve(server);
    });
  });
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) {
  const port = Number(process.env.SMTP_CAPTURE_PORT ?? 2626);
  const dir = process.env.SMTP_CAPTURE_DIR;
  if (!dir) {
    console.error('SMTP_CAPTURE_DIR is not set');
    process.exit(2);
  }
  const server = await startSmtpCapture(port, dir);
  console.log(`SMTP capture listening on 127.0.0.1:${port}, storing into ${dir}`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
