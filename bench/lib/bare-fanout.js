// The bare limit for watch fan-out: a node:http server that holds every GET open as a chunked
// stream and, on each write (any other method, body holding "seq-<n>"), answers the writer with
// the object (argv[2], with __SEQ__ replaced) and then writes the same MODIFIED event line to
// every stream. Prints its URL.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const object = readFileSync(process.argv[2], 'utf8');
const streams = new Set();
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    streams.add(res);
    res.on('close', () => streams.delete(res));
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const seq = /seq-(\d+)/.exec(body)?.[1] ?? '0';
    const obj = object.replaceAll('__SEQ__', seq);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(obj) });
    res.end(obj);
    const line = `{"type":"MODIFIED","object":${obj}}\n`;
    for (const s of streams) s.write(line);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`bare server: http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  for (const s of streams) s.destroy();
  server.close(() => process.exit(0));
});
