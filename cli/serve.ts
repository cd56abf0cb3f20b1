/**
 * `kgen serve [generatedDir]`: runs the API server over a generated directory and writes a
 * kubeconfig for kubectl. Stops cleanly (exit 0) on SIGINT/SIGTERM.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { durationOption } from './duration.js';
import { addAPIFlags, apiServerOptions, type APIFlags } from './serve-apis.js';
import { addAuthFlags, authServerOptions, type AuthFlags } from './serve-auth.js';
import { addConfigFlags, applyConfigFile, printConfig } from './serve-config.js';
import { addSecurityFlags, securityServerOptions, type SecurityFlags } from './serve-security.js';
import { addDelegationFlags, delegationServerOptions, type DelegationFlags } from './serve-delegation.js';

/** How long after the ready line the start's V8 code cache is written (bin/loader/code-cache.js). */
export const CODE_CACHE_DELAY_MS = 1000;

interface ServeOptions extends SecurityFlags, AuthFlags, APIFlags, DelegationFlags {
  port: number;
  host: string;
  storage?: string;
  dataDir: string;
  storagePrefix: string;
  etcdServers?: string;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
  compactionInterval?: number;
  eventTtl?: number;
  serviceAccountIssuer?: string;
  encryptionProviderConfig?: string;
  apiAudiences?: string;
  kubeconfigServer?: string;
  admission: string[];
  profiling?: boolean;
  handlers: string[];
  serviceClusterIpRange: string;
  serviceNodePortRange: string;
  workers: number;
}

/** --service-cluster-ip-range: an IPv4 CIDR with a prefix from /8 to /30. */
function serviceCIDR(value: string): string {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(value);
  if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) < 8 || Number(m[5]) > 30) {
    throw new InvalidArgumentError('expected an IPv4 CIDR with a prefix from /8 to /30, such as 10.0.0.0/24');
  }
  return value;
}

/** --service-node-port-range: ports such as 30000-32767. */
function nodePortRange(value: string): string {
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[2]) > 65535 || Number(m[2]) < Number(m[1])) throw new InvalidArgumentError('expected a port range such as 30000-32767');
  return value;
}

/**
 * The storage URL: --storage, or kube's --etcd-servers as its etcd:// form. Naming both, or
 * giving etcd TLS files without etcd, is a mistake worth stopping for.
 */
async function storageURL(opts: ServeOptions): Promise<string> {
  if (opts.etcdServers !== undefined) {
    if (opts.storage !== undefined) throw new Error('--etcd-servers and --storage both name the storage: give one');
    const { etcdServersStorageURL } = await import('./serve-runtime.js');
    return etcdServersStorageURL(opts.etcdServers);
  }
  const url = opts.storage ?? 'sqlite:';
  if ((opts.etcdCafile || opts.etcdCertfile || opts.etcdKeyfile) && !url.startsWith('etcd://')) {
    throw new Error('--etcd-cafile, --etcd-certfile and --etcd-keyfile apply to etcd storage only (--storage etcd://… or --etcd-servers)');
  }
  return url;
}

function parseWorkers(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 64) throw new InvalidArgumentError('expected a number of worker processes from 1 to 64');
  return n;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number (0-65535; 0 picks a free port)');
  return port;
}

/**
 * A `kgen generate` that stopped after its commit point left the folder part old, part new until
 * the next generate finishes it. The journal's name as generator/write/journal.ts gives it (not
 * imported: the generator stays out of the CLI's entry bundle); test/generator/write.test.ts
 * checks the two agree.
 */
function refusePendingWrite(generatedDir: string): void {
  let real: string;
  try {
    real = realpathSync(generatedDir);
  } catch {
    return;
  }
  const prefix = `.${basename(real)}.kgen-journal-`;
  const journal = readdirSync(dirname(real)).find((name) => name.startsWith(prefix) && !name.endsWith('.tmp'));
  if (journal) {
    throw new Error(`${generatedDir.replace(/\/$/, '')}/ holds an unfinished write (journal ${join(dirname(real), journal)}); run kgen generate to finish it`);
  }
}

async function serve(generatedDir: string, opts: ServeOptions): Promise<void> {
  refusePendingWrite(generatedDir);
  const storage = await storageURL(opts);
  const { default: cluster } = await import('node:cluster');
  const workers = await import('./serve-workers.js');
  workers.checkWorkersStorage(opts.workers, storage);
  if (opts.workers > 1 && cluster.isPrimary) return workers.runPrimary(opts.workers);
  const inCluster = cluster.isWorker;
  if (inCluster) {
    // Before anything else: the primary may ask for this worker's metrics as soon as it runs.
    // Through serve-runtime.ts, as every runtime module serve uses: one instance of the metrics
    // module, the one the server answers /metrics from.
    const { joinClusterMetrics, metricsRegistry, setMetricsSource } = await import('./serve-runtime.js');
    setMetricsSource(await joinClusterMetrics(await metricsRegistry()));
  }
  // Loaded here so `kgen generate` does not pay for the server's modules.
  const { startServer, loadEtcdTLS } = await import('./serve-runtime.js');
  const server = await startServer({
    generatedDir,
    storage,
    dataDir: opts.dataDir,
    storagePrefix: opts.storagePrefix,
    etcdTLS: loadEtcdTLS({ caFile: opts.etcdCafile, certFile: opts.etcdCertfile, keyFile: opts.etcdKeyfile }),
    compactionIntervalMs: opts.compactionInterval,
    eventTTLMs: opts.eventTtl,
    serviceAccountIssuer: opts.serviceAccountIssuer,
    encryptionProviderConfig: opts.encryptionProviderConfig,
    apiAudiences: opts.apiAudiences?.split(',').filter((a) => a !== ''),
    kubeconfigServer: opts.kubeconfigServer,
    admissionModules: opts.admission,
    profiling: opts.profiling === true,
    handlerModules: opts.handlers,
    serviceClusterIPRange: opts.serviceClusterIpRange,
    serviceNodePortRange: opts.serviceNodePortRange,
    host: opts.host,
    port: opts.port,
    log: (line) => console.error(line),
    ...securityServerOptions(opts),
    ...(await authServerOptions(opts)),
    ...(await apiServerOptions(opts)),
    ...delegationServerOptions(opts),
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second signal while draining gives up on the graceful shutdown. A worker hears of a
    // shutdown twice (its process group's signal and the primary's request): the primary kills
    // it if draining takes too long.
    if (stopping) {
      if (inCluster) return;
      process.exit(1);
    }
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
  // Before the line: whoever starts the server may stop it as soon as it reads the line (a SIGTERM
  // before these are registered would end the process at once, without the graceful shutdown).
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (inCluster) workers.onWorkerStop(() => stop('SIGTERM'));
  if (inCluster) {
    // The primary prints the server's lines once every worker is ready.
    workers.announceWorkerReady(server.url, server.kubeconfigPath);
  } else console.log(`kgen API server: ${server.url}`);
  // The V8 code cache of what the start compiled (bin/loader/code-cache.js), written a moment after
  // the line, not at exit: the same entries whatever the server serves later, and written even if
  // it is killed.
  const flushCodeCache = (globalThis as Record<symbol, unknown>)[Symbol.for('kgen.codeCache.flush')];
  if (typeof flushCodeCache === 'function') setTimeout(flushCodeCache as () => void, CODE_CACHE_DELAY_MS).unref();
  if (server.kubeconfigPath && !inCluster) {
    console.log(`kubeconfig: ${server.kubeconfigPath}`);
    console.log(`try: KUBECONFIG=${server.kubeconfigPath} kubectl api-resources`);
  }
}

export function registerServe(program: Command): void {
  const command = program
    .command('serve')
    .description('serve the generated APIs the way kube-apiserver does (kubectl works against it)')
    .argument('[generatedDir]', 'directory written by `kgen generate`', './generated')
    .option('--port <n>', 'port to listen on (0 picks a free port)', parsePort, 8080)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--storage <url>', "storage: 'memory:', 'sqlite:' (<data-dir>/kgen.db), 'sqlite:<path>' or 'etcd://host:port[,host:port…]' (members may be written https://host:port) (default: \"sqlite:\")")
    .option('--etcd-servers <urls>', "etcd members as kube-apiserver takes them (http(s)://host:port, comma-separated): the same as --storage etcd://…")
    .option('--etcd-cafile <file>', 'etcd: CA bundle (PEM) the members\' serving certificates are verified against')
    .option('--etcd-certfile <file>', 'etcd: client certificate (PEM) presented to every member (mutual TLS)')
    .option('--etcd-keyfile <file>', 'etcd: private key (PEM) of --etcd-certfile')
    .option('--data-dir <dir>', 'directory for the database and the kubeconfig', '.kgen')
    .option('--storage-prefix <prefix>', 'etcd: the key prefix every object is stored under', '/registry')
    .option('--compaction-interval <duration>', 'compact storage history older than this (Go duration; 0 disables) (default: 5m)', durationOption)
    .option('--event-ttl <duration>', 'how long Events are kept after their last write (Go duration) (default: 1h0m0s)', durationOption)
    .option('--encryption-provider-config <file>', "kube's EncryptionConfiguration: encrypt these resources at rest (aescbc, aesgcm, identity)")
    .option('--service-account-issuer <url>', "the 'iss' of the service account tokens the server signs (default: https://kubernetes.default.svc.cluster.local)")
    .option('--api-audiences <list>', 'comma-separated audiences a token must be meant for (default: the issuer)')
    .option('--service-cluster-ip-range <cidr>', "IPv4 CIDR Services' cluster IPs are allocated from", serviceCIDR, '10.0.0.0/24')
    .option('--service-node-port-range <range>', "port range NodePort and LoadBalancer Services' node ports are allocated from", nodePortRange, '30000-32767')
    .option('--kubeconfig-server <url>', 'server URL written into <data-dir>/kubeconfig, e.g. a load balancer in front of several replicas')
    .option(
      '--admission <module>',
      'a module attaching typed admission hooks to the generated registrations (may default-export admission plugins); repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      '--handlers <module>',
      'a module attaching typed handlers to custom subresources (@kgen:subresource custom) of the generated registrations; repeatable',
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option('--workers <n>', 'etcd storage only: serve from this many processes behind one listening socket (node:cluster), each with its own watch cache; a worker that exits is replaced', parseWorkers, 1)
    .option('--profiling', 'serve CPU and heap profiles at /debug/pprof/ (node:inspector), authorised like any non-resource URL (cluster-admin)', false);
  addConfigFlags(addDelegationFlags(addAPIFlags(addAuthFlags(addSecurityFlags(command))))).action(async (generatedDir: string, flags: ServeOptions & { config?: string; printConfig?: boolean }) => {
    try {
      if (flags.config) applyConfigFile(command, flags.config);
      const opts = command.opts<ServeOptions & { printConfig?: boolean }>();
      if (opts.printConfig) {
        process.stdout.write(printConfig(command));
        return;
      }
      await serve(generatedDir, opts);
    } catch (err) {
      console.error(`kgen serve: ${(err as Error).message}`);
      process.exitCode = 1;
    }
  });
}
