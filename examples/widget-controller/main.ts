/**
 * Runs the example Widget controller as a process under a ServiceAccount token:
 *
 *   node --import tsx examples/widget-controller/main.ts \
 *     --server https://127.0.0.1:8080 --ca .kgen/pki/ca/tls.crt --token-file token \
 *     --namespace default --identity replica-1 [--lease-duration 15s --renew-deadline 10s --retry-period 2s]
 *
 * SIGTERM or SIGINT stops it cleanly (it releases the Lease); losing the Lease exits with 1, as
 * controller-runtime's manager does, so it never acts on a stale view.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { widgetController } from './controller.js';

/** `1500ms`, `2s`, `1m`: the durations the flags take. */
function parseDuration(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value);
  if (!m) throw new Error(`invalid duration ${JSON.stringify(value)} (use e.g. 500ms, 2s, 1m)`);
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as 'ms' | 's' | 'm'];
}

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    ca: { type: 'string' },
    'token-file': { type: 'string' },
    namespace: { type: 'string', default: 'default' },
    identity: { type: 'string', default: `widget-controller-${process.pid}` },
    'lease-duration': { type: 'string', default: '15s' },
    'renew-deadline': { type: 'string', default: '10s' },
    'retry-period': { type: 'string', default: '2s' },
  },
});
if (!values.server || !values['token-file']) {
  console.error('usage: main.ts --server URL --token-file FILE [--ca FILE] [--namespace NS] [--identity ID]');
  process.exit(2);
}
const controller = widgetController({
  config: { server: values.server, ca: values.ca ? readFileSync(values.ca) : undefined, token: readFileSync(values['token-file'], 'utf8').trim(), qps: 50, burst: 100 },
  namespace: values.namespace!,
  identity: values.identity!,
  leaseDurationMs: parseDuration(values['lease-duration']!),
  renewDeadlineMs: parseDuration(values['renew-deadline']!),
  retryPeriodMs: parseDuration(values['retry-period']!),
});
const stop = new AbortController();
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop.abort());
controller.run(stop.signal).then(
  () => process.exit(stop.signal.aborted ? 0 : 1),
  (err: unknown) => {
    console.error(`widget-controller: ${(err as Error).message}`);
    process.exit(1);
  },
);
