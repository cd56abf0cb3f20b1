/**
 * Test etcd: starts a single etcd or a 3-member cluster on loopback, on free ports, in a fresh
 * temporary data dir (under /dev/shm when present, so fsync is cheap), and waits until every member
 * reports healthy. It throws when etcd cannot be started (binary missing, member exits, not healthy
 * in time): tests that need etcd fail, they never skip. Only the processes it started are killed.
 *
 * The binary is `$ETCD_BIN` or `etcd` on PATH (Debian: `apt-get install etcd-server etcd-client`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';

export interface EtcdMember {
  readonly name: string;
  /** `http://127.0.0.1:<port>`: what clients connect to. */
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly dataDir: string;
  /** True while the member's process is running. */
  readonly running: boolean;
}

/** PEM files a TLS cluster was started with (see StartEtcdOptions.tls). */
export interface EtcdTLSFiles {
  /** The CA that signed the members' serving and the client's certificates. */
  caFile: string;
  /** A client certificate (CN kgen-apiserver) and key the members accept. */
  certFile: string;
  keyFile: string;
}

export interface StartEtcdOptions {
  /** 1 (default) or 3. */
  members?: 1 | 3;
  /**
   * Serve clients over https with certificates made for the test (a CA, a serving certificate for
   * 127.0.0.1, a client certificate) and require client certificates (--client-cert-auth).
   * Health is then read from a plain http metrics listener.
   */
  tls?: boolean;
  /** How long to wait for the cluster to become healthy; default 20 s. */
  startTimeoutMs?: number;
}

const ETCD_BIN = process.env.ETCD_BIN || 'etcd';
const live = new Set<ChildProcess>();
const roots = new Set<string>();
const killLive = () => {
  for (const child of live) child.kill('SIGKILL');
  for (const root of roots) rmSync(root, { recursive: true, force: true });
};
process.once('exit', killLive);
// A test process ended by a signal runs no 'exit' handlers: kill the members, then die of it.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killLive();
    process.kill(process.pid, signal);
  });
}

class Member implements EtcdMember {
  process: ChildProcess | undefined;
  private stderr = '';

  constructor(
    readonly name: string,
    readonly clientPort: number,
    readonly peerPort: number,
    readonly dataDir: string,
    /** With TLS: the serving files and the plain http port /health is read from. */
    readonly tls?: { certFile: string; keyFile: string; caFile: string; metricsPort: number },
  ) {}

  get clientUrl(): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.clientPort}`;
  }

  /** Where /health answers: the client URL, or the plain metrics listener of a TLS member. */
  get healthUrl(): string {
    return this.tls ? `http://127.0.0.1:${this.tls.metricsPort}` : this.clientUrl;
  }

  get peerUrl(): string {
    return `http://127.0.0.1:${this.peerPort}`;
  }

  get running(): boolean {
    return this.process !== undefined && this.process.exitCode === null && this.process.signalCode === null;
  }

  /** Spawns etcd; rejects when the binary cannot be run. */
  async spawn(initialCluster: string, token: string): Promise<void> {
    const args = [
      '--name', this.name,
      '--data-dir', this.dataDir,
      '--listen-client-urls', this.clientUrl,
      '--advertise-client-urls', this.clientUrl,
      '--listen-peer-urls', this.peerUrl,
      '--initial-advertise-peer-urls', this.peerUrl,
      '--initial-cluster', initialCluster,
      '--initial-cluster-state', 'new',
      '--initial-cluster-token', token,
      '--heartbeat-interval', '50',
      '--election-timeout', '500',
      '--logger', 'zap',
      '--log-level', 'error',
      ...(this.tls
        ? [
            '--cert-file', this.tls.certFile,
            '--key-file', this.tls.keyFile,
            '--trusted-ca-file', this.tls.caFile,
            '--client-cert-auth',
            '--listen-metrics-urls', this.healthUrl,
          ]
        : []),
    ];
    this.stderr = '';
    const child = spawn(ETCD_BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    this.process = child;
    live.add(child);
    child.once('exit', () => live.delete(child));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => reject(new Error(`cannot run ${ETCD_BIN} (install etcd-server): ${err.message}`)));
    });
  }

  /** Resolves once /health says true; rejects if the process exits or the deadline passes. */
  async waitHealthy(deadline: number): Promise<void> {
    for (;;) {
      if (!this.running) throw new Error(`etcd member ${this.name} exited: ${this.stderr.trim() || '(no output)'}`);
      if (await this.healthy()) return;
      if (Date.now() > deadline) throw new Error(`etcd member ${this.name} not healthy in time: ${this.stderr.trim()}`);
      await sleep(50);
    }
  }

  async healthy(): Promise<boolean> {
    try {
      const res = await fetch(`${this.healthUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      return body.health === 'true';
    } catch {
      return false;
    }
  }

  /** Kills the member with `signal` and waits for it to exit. */
  async kill(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child || !this.running) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
  }
}

export class EtcdCluster {
  private constructor(
    private readonly root: string,
    private readonly list: Member[],
    private readonly initialCluster: string,
    private readonly token: string,
    /** The CA and client certificate files of a TLS cluster. */
    readonly tls?: EtcdTLSFiles,
  ) {}

  /** Starts etcd and waits until every member is healthy; throws when it cannot. */
  static async start(opts: StartEtcdOptions = {}): Promise<EtcdCluster> {
    const count = opts.members ?? 1;
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    const root = mkdtempSync(join(base, 'kgen-etcd-'));
    roots.add(root);
    const ports = await freePorts(count * 3);
    const files = opts.tls ? writeTestPKI(root) : undefined;
    const members = Array.from(
      { length: count },
      (_, i) =>
        new Member(`m${i}`, ports[3 * i]!, ports[3 * i + 1]!, join(root, `m${i}`), files && { ...files.serving, caFile: files.client.caFile, metricsPort: ports[3 * i + 2]! }),
    );
    const initialCluster = members.map((m) => `${m.name}=${m.peerUrl}`).join(',');
    const cluster = new EtcdCluster(root, members, initialCluster, `kgen-test-${process.pid}-${ports[0]}`, files?.client);
    try {
      for (const m of members) await m.spawn(initialCluster, cluster.token);
      const deadline = Date.now() + (opts.startTimeoutMs ?? 20_000);
      await Promise.all(members.map((m) => m.waitHealthy(deadline)));
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  get members(): readonly EtcdMember[] {
    return this.list;
  }

  /** Every member's client URL, for `etcd://` URLs or client hosts. */
  get endpoints(): string[] {
    return this.list.map((m) => m.clientUrl);
  }

  /** `etcd://127.0.0.1:<port>[,…]`, or `etcd://https://127.0.0.1:<port>[,…]` for a TLS cluster. */
  get storageUrl(): string {
    return `etcd://${this.list.map((m) => (m.tls ? m.clientUrl : `127.0.0.1:${m.clientPort}`)).join(',')}`;
  }

  /** Kills member i (SIGKILL by default) and waits for it to exit. */
  async kill(i: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    await this.list[i].kill(signal);
  }

  /** Restarts member i on its old ports and data dir and waits until it is healthy. */
  async restart(i: number, timeoutMs = 20_000): Promise<void> {
    const m = this.list[i];
    if (m.running) return;
    await m.spawn(this.initialCluster, this.token);
    await m.waitHealthy(Date.now() + timeoutMs);
  }

  /** The index of the current raft leader, read from the members' status endpoints. */
  async leaderIndex(): Promise<number> {
    for (let i = 0; i < this.list.length; i++) {
      const m = this.list[i];
      if (!m.running) continue;
      try {
        const res = await fetch(`${m.healthUrl}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(1000) });
        const status = (await res.json()) as { header?: { member_id?: string }; leader?: string };
        if (status.leader && status.header?.member_id === status.leader) return i;
      } catch {
        // try the next member
      }
    }
    return -1;
  }

  /** Kills every member this cluster started and removes the data dir. */
  async stop(): Promise<void> {
    await Promise.all(this.list.map((m) => m.kill('SIGKILL')));
    rmSync(this.root, { recursive: true, force: true });
    roots.delete(this.root);
  }
}

/**
 * A CA, a serving certificate for 127.0.0.1/localhost and a client certificate, written under
 * `<root>/pki` (made with kgen's own certificate code).
 */
function writeTestPKI(root: string): { serving: { certFile: string; keyFile: string }; client: EtcdTLSFiles } {
  const dir = join(root, 'pki');
  mkdirSync(dir, { recursive: true });
  const ca = newCA('etcd-test-ca');
  const serving = newSignedCertificate(ca, { commonName: 'etcd', usage: 'server', hosts: ['127.0.0.1', 'localhost'] });
  // etcd's peer-less client port checks only the chain; one certificate serves both uses here.
  const client = newSignedCertificate(ca, { commonName: 'kgen-apiserver', usage: 'client' });
  const write = (name: string, pem: string) => {
    const path = join(dir, name);
    writeFileSync(path, pem, { mode: 0o600 });
    return path;
  };
  return {
    serving: { certFile: write('server.crt', serving.cert), keyFile: write('server.key', serving.key) },
    client: { caFile: write('ca.crt', ca.cert), certFile: write('client.crt', client.cert), keyFile: write('client.key', client.key) },
  };
}

/** Starts etcd (see EtcdCluster.start). */
export function startEtcd(opts: StartEtcdOptions = {}): Promise<EtcdCluster> {
  return EtcdCluster.start(opts);
}

/**
 * A TCP proxy on loopback in front of one etcd member, to cut one client off while etcd and its
 * other clients carry on. cut() closes every proxied connection and refuses new ones until resume().
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** Proxies 127.0.0.1:<free port> to `targetUrl` (`http://host:port`). */
  static async start(targetUrl: string): Promise<TcpProxy> {
    const url = new URL(targetUrl);
    const [port] = await freePorts(1);
    const proxy = new TcpProxy({ host: url.hostname, port: Number(url.port) }, port);
    await proxy.resume();
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((r) => server.close(r));
  }

  close(): Promise<void> {
    return this.cut();
  }
}

/** n distinct free TCP ports on 127.0.0.1 (held open together so they differ). */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
