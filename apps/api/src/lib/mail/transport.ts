import fs from 'node:fs/promises';
import path from 'node:path';
import type Nodemailer from 'nodemailer';
import { lazyModule } from '../lazy-module.ts';
import type { FastifyBaseLogger } from 'fastify';

const nodemailer = lazyModule<typeof Nodemailer>('nodemailer');

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: a real SMTP server, or (with no SMTP_URL) .eml files and the log. */
export interface MailTransport {
  readonly kind: 'smtp' | 'file';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer().createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({ from, ...mail });
    },
    close: () => transporter.close(),
  };
}

/** Keeps each message as DATA_DIR/mail/<time>-<to>.eml and logs it, for running without SMTP. */
export function createFileTransport(
  dir: string,
  from: string,
  log: Pick<FastifyBaseLogger, 'info'>,
): MailTransport {
  const builder = nodemailer().createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'file',
    async send(mail) {
      const info = await builder.sendMail({ from, ...mail });
      await fs.mkdir(dir, { recursive: true });
      const safeTo = mail.to.replace(/[^a-zA-Z0-9@._-]/g, '_');
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      const relative = path.relative(process.cwd(), file);
      log.info(fileMailLine(mail, relative.startsWith('..') ? file : relative));
    },
    close: () => builder.close(),
  };
}

/** The layout puts a one-time code on a line of its own (templates.ts). */
const CODE_LINE = /^\s*(\d{6})\s*$/m;

/**
 * One readable line for a message kept as a file, e.g.
 * `Mail to ada@example.com: "Your Portolan activation code" (code 123456), saved as data/mail/….eml`,
 * so a person running without SMTP finds the code at a glance.
 */
export function fileMailLine(mail: OutgoingMail, file: string): string {
  const code = CODE_LINE.exec(mail.text)?.[1];
  return `Mail to ${mail.to}: "${mail.subject}"${code ? ` (code ${code})` : ''}, saved as ${file}`;
}
