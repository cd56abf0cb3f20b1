// The load generator, run as its own process (so it does not share a CPU queue with the server):
// autocannon with a config given as JSON in argv[2]; prints the result as one JSON line.
//
// config: { url, method?, headers?, body?, connections, durationSec, warmupSec?, rate?,
//           template?: { path?, body?, prefix, modulo? } }
// With a template, every request gets its own name `<prefix>-<n>` (n counting up, or cycling
// modulo `modulo`) substituted for __NAME__ (and n for __SEQ__) in the path and body: creates of
// distinct objects, or updates cycling over existing ones.
import autocannon from 'autocannon';

const config = JSON.parse(process.argv[2]);

function requests() {
  const t = config.template;
  if (!t) return undefined;
  let n = 0;
  return [
    {
      method: config.method ?? 'GET',
      setupRequest(req) {
        const i = t.modulo ? n % t.modulo : n;
        n++;
        const name = `${t.prefix}-${i}`;
        const sub = (s) => s.replaceAll('__NAME__', name).replaceAll('__SEQ__', String(n));
        return { ...req, path: t.path ? sub(t.path) : req.path, body: t.body ? sub(t.body) : req.body };
      },
    },
  ];
}

function run(durationSec) {
  return autocannon({
    url: config.url,
    method: config.method ?? 'GET',
    headers: config.headers,
    body: config.body,
    connections: config.connections,
    // A fixed request rate (all connections together), so CPU per request compares at equal load.
    overallRate: config.rate,
    duration: durationSec,
    requests: requests(),
  });
}

let warm;
if (config.warmupSec > 0) {
  if (config.template) config.template.prefix += '-warm';
  warm = await run(config.warmupSec);
  if (config.template) config.template.prefix = config.template.prefix.slice(0, -'-warm'.length);
}
const r = await run(config.durationSec);
const ok = r['2xx'];
console.log(
  JSON.stringify({
    durationSec: r.duration,
    ok,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    rps: ok / r.duration,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.average },
    bytesPerSec: r.throughput.average,
    // Requests answered during the warm-up (not in ok): for CPU per request over the whole load.
    warmupRequests: warm ? warm['2xx'] + warm.non2xx : 0,
  }),
);
