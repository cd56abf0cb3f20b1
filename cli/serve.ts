/**
 * `kgen serve [generatedDir]`: runs the API server over a generated directory and writes a
 * kubeconfig for kubectl. Stops cleanly (exit 0) on SIGINT/SIGTERM.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { durationOption } from './duration.js';
import { addSecurityFlags, securityServerOptions, type SecurityFlags } from './serve-security.js';

interface ServeOptions extends SecurityFlags {
  port: number;
  host: string;
  storage?: string;
  dataDir: string;
  storagePrefix: string;
  compactionInterval?: number;
  kubeconfigServer?: string;
  admission: string[];
  serviceClusterIpRange: string;
}

/** --service-cluster-ip-range: an IPv4 CIDR with a prefix from /8 to /30. */
function serviceCIDR(value: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(value);
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) < 8 || Number(m[5]) > 30) {
    throw new InvalidArgumentError('expected an IPv4 CIDR with a prefix from /8 to /30, such as 10.0.0.0/24');
  }
  return value;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number (0-65535; 0 picks a free port)');
  return port;
}

async function serve(generatedDir: string, opts: ServeOptions): Promise<void> {
  // Loaded here so `kgen generate` does not pay for the server's modules.
  const { startServer } = await import('../runtime/server/server.js');
  const server = await startServer({
    generatedDir,
    storage: opts.storage ?? 'sqlite:',
    dataDir: opts.dataDir,
    storagePrefix: opts.storagePrefix,
    compactionIntervalMs: opts.compactionInterval,
    kubeconfigServer: opts.kubeconfigServer,
    admissionModules: opts.admission,
    serviceClusterIPRange: opts.serviceClusterIpRange,
    host: opts.host,
    port: opts.port,
    log: (line) => console.error(line),
    ...securityServerOptions(opts),
  });
  console.log(`kgen API server: ${server.url}`);
  if (server.kubeconfigPath) {
    console.log(`kubeconfig: ${server.kubeconfigPath}`);
    console.log(`try: KUBECONFIG=${server.kubeconfigPath} kubectl api-resources`);
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while draining gives up on the graceful shutdown.
    if (stopping) process.exit(1);
    stopping = true;
    console.error(`received ${signal}, shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`error while shutting down: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('serve the generated APIs the way kube-apiserver does (kubectl works against it)')
    .argument('[generatedDir]', 'directory written by `kgen generate`', './generated')
    .option('--port <n>', 'port to listen on (0 picks a free port)', parsePort, 8080)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--storage <url>', "storage: 'memory:', 'sqlite:' (<data-dir>/kgen.db), 'sqlite:<path>' or 'etcd://host:port[,host:port…]'", 'sqlite:')
    .option('--data-dir <dir>', 'directory for the database and the kubeconfig', '.kgen')
    .option('--storage-prefix <prefix>', 'etcd: the key prefix every object is stored under', '/registry')
    .option('--compaction-interval <duration>', 'compact storage history older than this (Go duration; 0 disables) (default: 5m)', durationOption)
    .option('--service-cluster-ip-range <cidr>', "IPv4 CIDR Services' cluster IPs are allocated from", serviceCIDR, '10.0.0.0/24')
    .option('--kubeconfig-server <url>', 'server URL written into <data-dir>/kubeconfig, e.g. a load balancer in front of several replicas')
    .option(
      '--admission <module>',
      'a module attaching typed admission hooks to the generated registrations (may default-export admission plugins); repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    );
  addSecurityFlags(command).action(async (generatedDir: string, opts: ServeOptions) => {
    try {
      await serve(generatedDir, opts);
    } catch (err) {
      console.error(`kgen serve: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  });
}
