// The bare limit for a response: a node:http server that answers every request with the bytes of
// the file in argv[2] (Content-Type argv[3], default application/json). Prints its URL.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]);
const type = process.argv[3] ?? 'application/json';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`bare server: http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
