// What writing a LIST body costs a bare node:http server, by how the body is handed to node:
// the same ~550 KB (a list envelope around 500 objects of ~1.1 KB, each its own allocation, as
// the watch cache holds them), answered by a server in a child process, its user + system CPU
// per request read with process.cpuUsage around a fixed number of keep-alive requests (two in
// flight). Modes, alternating in each round:
//   ready   one Buffer made once, written with res.end (the bench's bare server);
//   copy    the objects' Buffers copied into one reused buffer per request, then res.end (kgen);
//   latin1  the same from latin1 strings (kgen for entries not decoded);
//   chunks  no copy: head, each object's Buffer, the commas and the tail as 1,001 res.write calls
//           in one cork (one writev to the socket), Content-Length summed;
//   chunks500  the same with each object's comma inside its Buffer (502 writes).
// The order of the modes turns by one each round.
// Measures the lead "write the entries' bytes as chunks instead of copying them" (issue 19).
//
//   node bench/tools/list-body-writes.js [--rounds n] [--requests n] [--modes a,b,...]
//
// Prints one JSON line per round: µs of server CPU per request for each mode, and the load.
import { fork } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const OBJECTS = 500;
const OBJECT_BYTES = 1100;

if (process.argv[2] === '--serve') serve(process.argv[3]);
else await measure();

function serve(mode) {
  const buffers = [];
  const strings = [];
  const withComma = [];
  const spacers = [];
  for (let i = 0; i < OBJECTS; i++) {
    const text = `{"i":${String(i).padStart(4, '0')},"x":"${'x'.repeat(OBJECT_BYTES - 20)}"}`;
    buffers.push(Buffer.from(text, 'latin1'));
    strings.push(`${text}`);
    withComma.push(Buffer.from(i < OBJECTS - 1 ? `${text},` : text, 'latin1'));
    spacers.push(Buffer.alloc(3000)); // the objects are not next to each other in memory
  }
  const head = Buffer.from('{"kind":"WidgetList","apiVersion":"example.com/v1","metadata":{"resourceVersion":"1234"},"items":[');
  const tail = Buffer.from(']}');
  const comma = Buffer.from(',');
  let total = head.length + tail.length + OBJECTS - 1;
  for (const b of buffers) total += b.length;
  const ready = Buffer.concat([head, ...buffers.flatMap((b, i) => (i ? [comma, b] : [b])), tail]);
  const pool = Buffer.allocUnsafeSlow(1 << 20);
  const server = http.createServer((req, res) => {
    res.writeHead(200, ['Content-Type', 'application/json', 'Content-Length', total]);
    if (mode === 'ready') return void res.end(ready);
    if (mode === 'copy' || mode === 'latin1') {
      const out = pool.subarray(0, total);
      out.set(head, 0);
      let at = head.length;
      for (let i = 0; i < OBJECTS; i++) {
        if (i > 0) out[at++] = 0x2c;
        if (mode === 'copy') {
          out.set(buffers[i], at);
          at += buffers[i].length;
        } else at += out.latin1Write(strings[i], at, strings[i].length);
      }
      out.set(tail, at);
      return void res.end(out);
    }
    res.cork();
    res.write(head);
    if (mode === 'chunks') {
      for (let i = 0; i < OBJECTS; i++) {
        if (i > 0) res.write(comma);
        res.write(buffers[i]);
      }
    } else for (const b of withComma) res.write(b);
    res.end(tail);
    res.uncork();
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('message', (m) => {
    if (m !== 'cpu') process.exit(0);
    const { user, system } = process.cpuUsage();
    process.send(user + system);
  });
}

async function measure() {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, requests: { type: 'string', default: '3000' }, modes: { type: 'string', default: 'ready,copy,latin1,chunks,chunks500' } } });
  const modes = values.modes.split(',');
  const requests = Number(values.requests);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const get = (port) =>
    new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
          let n = 0;
          res.on('data', (d) => (n += d.length));
          res.on('end', () => resolve(n));
        })
        .on('error', reject);
    });
  let length;
  for (let round = 1; round <= Number(values.rounds); round++) {
    const result = { round, cpuMicrosPerRequest: {}, load: [loadavg()[0]] };
    // The order turns by one each round, so no mode always runs first or last.
    const order = modes.map((_, i) => modes[(i + round - 1) % modes.length]);
    for (const mode of order) {
      const child = fork(fileURLToPath(import.meta.url), ['--serve', mode]);
      const port = await new Promise((r) => child.once('message', r));
      const cpu = () => new Promise((r) => { child.once('message', r); child.send('cpu'); });
      for (let i = 0; i < requests / 6; i++) await Promise.all([get(port), get(port)]);
      const before = await cpu();
      for (let i = 0; i < requests / 2; i++) {
        const [n] = await Promise.all([get(port), get(port)]);
        if (length === undefined) length = n;
        else if (n !== length) throw new Error(`${mode}: ${n} bytes, not ${length}`);
      }
      const after = await cpu();
      result.cpuMicrosPerRequest[mode] = Math.round(((after - before) / requests) * 10) / 10;
      child.send('exit');
    }
    result.load.push(loadavg()[0]);
    console.log(JSON.stringify(result));
  }
  agent.destroy();
}
