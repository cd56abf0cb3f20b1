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
import { parseGoDuration } from '../../cli/duration.js';
import { widgetController } from './controller.js';

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
  leaseDurationMs: parseGoDuration(values['lease-duration']!),
  renewDeadlineMs: parseGoDuration(values['renew-deadline']!),
  retryPeriodMs: parseGoDuration(values['retry-period']!),
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
