// The bare limit for a paged LIST: a node:http server holding the bytes of every page kgen
// answered (argv[2]: the directory paged-worker.js saved, with pages.json mapping each request's
// continue token to its page) and answering `?continue=<token>` with that page. Prints its URL.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const dir = process.argv[2];
const pages = new Map();
for (const { token, file } of JSON.parse(readFileSync(join(dir, 'pages.json'), 'utf8'))) pages.set(token, readFileSync(join(dir, file)));
const server = createServer((req, res) => {
  req.resume();
  const token = new URL(req.url, 'http://x').searchParams.get('continue') ?? '';
  const body = pages.get(token);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`bare server: http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
