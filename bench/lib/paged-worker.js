// The client of the paged LIST benchmark, in its own process: walks a whole collection with
// `?limit=<limit>` and `continue`, one page after the other over one keep-alive connection, and
// times each page (request sent → last byte read). The continue token is read from the start of
// the body (a list's metadata comes before its items) without parsing the page, so the client
// costs the same against kgen and against the bare server. With `saveDir`, every page's bytes are
// kept there (page-<i>.json) with an index of the tokens (pages.json), for the bare server.
// config (argv[2], JSON): { url, limit, saveDir? } → prints {"pages", "items", "bytes", "totalMs", "pageMs": [...]}
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';

const config = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const TOKEN = /"continue":"([^"]*)"/;

function get(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const pageMs = [];
const index = [];
let bytes = 0;
let items = 0;
let token = '';
if (config.saveDir) mkdirSync(config.saveDir, { recursive: true });
for (let page = 0; ; page++) {
  const url = `${config.url}?limit=${config.limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
  const started = performance.now();
  const body = await get(url);
  pageMs.push(performance.now() - started);
  bytes += body.length;
  // Items are counted outside the timed part (totalMs is the sum of the pages' times).
  const head = body.subarray(0, 2048).toString('latin1');
  const next = TOKEN.exec(head)?.[1] ?? '';
  if (config.saveDir) {
    writeFileSync(join(config.saveDir, `page-${page}.json`), body);
    index.push({ token, file: `page-${page}.json` });
  }
  items += JSON.parse(body.toString()).items.length;
  token = next;
  if (!token) break;
}
const totalMs = pageMs.reduce((a, b) => a + b, 0);
if (config.saveDir) writeFileSync(join(config.saveDir, 'pages.json'), JSON.stringify(index));
console.log(JSON.stringify({ pages: pageMs.length, items, bytes, totalMs, pageMs }));
agent.destroy();
