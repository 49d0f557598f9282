// The bare Fastify server of `npm run bench` (issue 12: our server is measured against it):
//   node bare-server.ts ANSWERS.json PORT WORKERS
// answers GET on each path of ANSWERS.json ([{path, contentType, body}]) with those exact bytes:
// the Fastify our API runs, one route per path, no hooks, no plugins, no database. With WORKERS
// above 1 it runs as many worker processes behind node:cluster, as our server does, so the two
// are compared like with like. Prints "ready" once every worker listens.
import cluster from 'node:cluster';
import fs from 'node:fs';
import Fastify from 'fastify';

const [answersFile, port, workerCount] = process.argv.slice(2);
const workers = Math.max(1, Number(workerCount ?? 1));

async function serve() {
  const answers = JSON.parse(fs.readFileSync(answersFile!, 'utf8')) as {
    path: string;
    contentType: string;
    body: string;
  }[];
  const app = Fastify({ logger: false });
  for (const answer of answers) {
    const bytes = Buffer.from(answer.body);
    app.get(answer.path, (_request, reply) => reply.type(answer.contentType).send(bytes));
  }
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  return app;
}

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  cluster.on('listening', () => {
    if (++listening === workers) console.log('ready');
  });
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const app = await serve();
  if (cluster.isPrimary) console.log('ready');
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}
