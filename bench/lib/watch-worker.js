// Watchers for the fan-out benchmark, in their own process: opens `watchers` watch streams on
// `url`, prints "ready" once every one has its response headers, and records when each stream
// delivers the event of update n (an event holding `"title":"seq-<n>"`), as epoch
// milliseconds (performance.timeOrigin + now, comparable across processes). Exits once every
// stream has delivered update `last` or `timeoutMs` after "ready" (or when the streams are not
// all open after `openTimeoutMs`), writing
// {"deliveries": {"<n>": [ms, …]}, "streams": k, "errors": [...]} to `outFile`.
// config (argv[2], JSON): { url, watchers, last, timeoutMs, outFile, openTimeoutMs? }
import { writeFileSync } from 'node:fs';
import http from 'node:http';

const config = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const deliveries = {};
const errors = [];
const streams = [];
let ready = 0;
let doneStreams = 0;
const now = () => performance.timeOrigin + performance.now();
const MARKER = Buffer.from('"title":"seq-');
const EMPTY = Buffer.alloc(0);

function finish() {
  writeFileSync(config.outFile, JSON.stringify({ deliveries, streams: ready, errors: errors.slice(0, 20) }));
  for (const req of streams) req.destroy();
  process.exit(0);
}

// Streams open in waves of WAVE (the next once the previous one has its headers), as clients
// arriving over a few seconds would: 10,000 connections at once overflow the listen backlog and
// outlast Node's headersTimeout on a busy machine, which is not what this benchmark measures.
const WAVE = config.wave ?? 500;
let settled = 0;
let opened = 0;
function settle() {
  if (++settled === opened) openWave();
}
function openWave() {
  const end = Math.min(config.watchers, opened + WAVE);
  for (let i = opened; i < end; i++) openStream(i);
  opened = end;
}

function openStream(i) {
  let counted = false;
  const once = () => {
    if (!counted) {
      counted = true;
      settle();
    }
  };
  const req = http.get(config.url, { agent, headers: { accept: 'application/json' } }, (res) => {
    once();
    if (res.statusCode !== 200) {
      errors.push(`watch ${i}: HTTP ${res.statusCode}`);
      res.resume();
      return;
    }
    ready++;
    if (ready === config.watchers) {
      console.log('ready');
      // The deliveries' deadline runs from here: opening 10,000 streams takes a while.
      clearTimeout(opening);
      setTimeout(finish, config.timeoutMs);
    }
    // Bytes, not strings: the worker must keep up with watchers × updates deliveries a second, so
    // it only looks for the marker in each chunk (a marker split across chunks is joined first).
    let tail = EMPTY;
    let finished = false;
    res.on('data', (chunk) => {
      const t = now();
      const buf = tail.length ? Buffer.concat([tail, chunk]) : chunk;
      let at = 0;
      let end = buf.length;
      for (;;) {
        const i = buf.indexOf(MARKER, at);
        if (i < 0) break;
        let j = i + MARKER.length;
        let seq = 0;
        while (j < buf.length && buf[j] >= 48 && buf[j] <= 57) seq = seq * 10 + (buf[j++] - 48);
        if (j >= buf.length) {
          end = i; // the number may go on in the next chunk
          break;
        }
        at = j;
        (deliveries[seq] ??= []).push(t);
        if (seq === config.last && !finished) {
          finished = true;
          if (++doneStreams === config.watchers) finish();
        }
      }
      // Keep what could be the start of a marker cut by the chunk boundary.
      const keepFrom = Math.max(at, end === buf.length ? buf.length - MARKER.length : end);
      tail = buf.subarray(keepFrom);
    });
    res.on('end', () => errors.push(`watch ${i}: stream ended`));
  });
  req.on('error', (err) => {
    errors.push(`watch ${i}: ${err.message}`);
    once();
  });
  streams.push(req);
}
openWave();
// Streams that are not all open within openTimeoutMs: give up (the file says how many opened).
const opening = setTimeout(finish, config.openTimeoutMs ?? 120_000);
