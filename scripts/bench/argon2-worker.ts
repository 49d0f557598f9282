// One process of the raw argon2id measurement (argon2.ts): verifies a password against a hash
// made at our parameters (the API's own passwords.ts), `concurrency` verifications in flight,
// from the parent's "go" until the deadline; answers how many completed.
import { hashPassword, verifyPassword } from '../../apps/api/src/modules/auth/passwords.ts';

const PASSWORD = 'Bench sign-in passphrase 1';
const hash = await hashPassword(PASSWORD);
// Warm: the first verification pays for loading and allocating.
await verifyPassword(hash, PASSWORD);
process.send!({ ready: true });

process.once('message', async (message: { concurrency: number; durationMs: number }) => {
  const deadline = performance.now() + message.durationMs;
  let done = 0;
  await Promise.all(
    Array.from({ length: message.concurrency }, async () => {
      while (performance.now() < deadline) {
        if (!(await verifyPassword(hash, PASSWORD))) throw new Error('verification failed');
        done++;
      }
    }),
  );
  process.send!({ done }, () => process.exit(0));
});
