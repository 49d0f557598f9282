// The S3 client against the local S3 double (S3rver, in this process): the cost of the first
// call (loading the client included), memory after it, and the latency of PUT and GET of a 4 KiB
// object, sequential. Decision 0013. `node scripts/bench/s3-client.ts [rounds]`.
import { s3ClientFor } from '../../apps/api/src/lib/s3/client.ts';
import { parseStorageUrl } from '../../apps/api/src/lib/s3/storage-url.ts';
import { startLocalS3 } from '../../apps/api/test/support/s3-server.ts';

const rounds = Number(process.argv[2] ?? 300);
const s3 = await startLocalS3();
const client = s3ClientFor(parseStorageUrl(s3.storageUrl()));
const body = Buffer.alloc(4096, 'x');
const mb = (n: number) => (n / 2 ** 20).toFixed(1);
const drain = async (key: string) => {
  const found = await client.getObject(key);
  if (!found) throw new Error(`${key} not found`);
  for await (const _ of found.body);
};

const before = process.memoryUsage().rss;
let at = performance.now();
await client.putObject('first', body, 'text/plain');
const firstPut = performance.now() - at;
const afterFirst = process.memoryUsage().rss;

const timed = async (op: (i: number) => Promise<void>) => {
  const ms: number[] = [];
  for (let i = 0; i < rounds; i++) {
    at = performance.now();
    await op(i);
    ms.push(performance.now() - at);
  }
  ms.sort((x, y) => x - y);
  const q = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))]!.toFixed(2);
  return `median ${q(0.5)} ms, p95 ${q(0.95)} ms`;
};
const put = await timed((i) => client.putObject(`k${i}`, body, 'text/plain'));
const get = await timed((i) => drain(`k${i}`));
console.log(`first PUT (client load included): ${firstPut.toFixed(0)} ms`);
console.log(
  `RSS: ${mb(before)} MB before, ${mb(afterFirst)} MB after the first PUT (+${mb(afterFirst - before)})`,
);
console.log(`PUT 4 KiB ×${rounds}: ${put}`);
console.log(`GET 4 KiB ×${rounds}: ${get}`);
console.log(`RSS at the end: ${mb(process.memoryUsage().rss)} MB`);
await s3.stop();
