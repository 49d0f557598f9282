// Reading the mail the SMTP capture stored for this run (one JSON file per message).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CapturedMail } from './smtp-capture.ts';

export type { CapturedMail };

export interface WaitForOptions {
  /** Only messages whose subject matches. */
  subject?: RegExp;
  /** Only messages received at or after this time (e.g. to skip an earlier code). */
  since?: Date;
  /** Default 15 s. */
  timeoutMs?: number;
}

/**
 * Messages already read, by file: the capture writes each file once (write, then rename) and never
 * changes it, so a message is parsed once per test process, not on every 200-ms poll of every
 * test (the run's folder holds hundreds of messages by its end).
 */
const parsed = new Map<string, CapturedMail>();

export class Mailbox {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Every captured message, oldest first. */
  all(): CapturedMail[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n.endsWith('.json') && !n.startsWith('.'))
      .sort()
      .map((n) => {
        const file = path.join(this.dir, n);
        let mail = parsed.get(file);
        if (!mail) {
          mail = JSON.parse(readFileSync(file, 'utf8')) as CapturedMail;
          parsed.set(file, mail);
        }
        return mail;
      });
  }

  /** Messages delivered to an address (SMTP envelope or To/Cc), oldest first. */
  messagesTo(email: string, options: Omit<WaitForOptions, 'timeoutMs'> = {}): CapturedMail[] {
    const address = email.trim().toLowerCase();
    return this.all().filter(
      (m) =>
        (m.envelope.to.includes(address) || m.to.includes(address)) &&
        (!options.subject || options.subject.test(m.subject)) &&
        (!options.since || new Date(m.receivedAt) >= options.since),
    );
  }

  /** The newest matching message for the address, waiting for it to arrive. */
  async waitFor(email: string, options: WaitForOptions = {}): Promise<CapturedMail> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messagesTo(email, options).at(-1);
      if (found) return found;
      if (Date.now() > deadline) {
        const seen = this.all()
          .map((m) => `  to ${m.envelope.to.join(', ')}: ${m.subject}`)
          .join('\n');
        throw new Error(
          `No e-mail to ${email}${options.subject ? ` with a subject matching ${options.subject}` : ''} ` +
            `within ${timeoutMs} ms. Captured so far:\n${seen || '  (none)'}`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** The 6-digit code of an e-mail's text: the only standalone run of exactly six digits. */
export function extractCode(text: string): string {
  const codes = [...new Set(text.match(/(?<!\d)\d{6}(?!\d)/g) ?? [])];
  if (codes.length !== 1) {
    throw new Error(
      `Expected exactly one 6-digit code in the e-mail, found ${codes.length}:\n${text}`,
    );
  }
  return codes[0]!;
}
