import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { activationCodeMail } from './templates.ts';
import { createFileTransport } from './transport.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portolan-mail-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('mail without SMTP_URL', () => {
  it('keeps the message as an .eml file and logs one readable line with the code and the file', async () => {
    const lines: unknown[][] = [];
    const transport = createFileTransport(dir, 'Portolan <no-reply@portolan.local>', {
      info: (...args: unknown[]) => void lines.push(args),
    } as never);
    const ctx = { brand: 'Portolan', publicUrl: 'http://localhost:3000', supportEmail: 's@x.io' };
    await transport.send(activationCodeMail(ctx, 'ada@example.com', 'Ada', '123456'));
    transport.close();

    expect(lines).toHaveLength(1);
    const [line] = lines[0]!;
    expect(line).toMatch(
      /^Mail to ada@example\.com: "Your Portolan activation code" \(code 123456\), saved as .+\.eml$/,
    );
    const file = /saved as (.+)$/.exec(line as string)![1]!;
    const saved = fs.readFileSync(path.resolve(process.cwd(), file), 'utf8');
    expect(saved).toContain('Subject: Your Portolan activation code');
    expect(saved).toContain('123456');
  });
});
