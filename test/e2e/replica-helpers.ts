/**
 * Helpers for the replica and crash suites: `kgen serve` processes on etcd or SQLite, typed clients
 * aimed at one particular replica (the kubeconfig's credentials, that replica's URL), and
 * retrying writers that tell an acknowledged write from one whose outcome is unknown.
 */
import net from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Clientset } from '../../generated/client/index.js';
import { loadKubeconfig, StatusError, type RestConfig } from '@kgen/client';
import { REPO, startKgen, type KgenServer } from './harness.js';

export const GENERATED = join(REPO, 'generated');

export interface ReplicaOptions {
  dataDir: string;
  /** Storage URL; default SQLite in the data dir. */
  storage?: string;
  /** Fixed port (a restart on the same port keeps clients and kubeconfigs valid); default 0. */
  port?: number;
  args?: string[];
}

/** Starts `kgen serve` over the committed generated/ tree. */
export function startReplica(opts: ReplicaOptions): Promise<KgenServer> {
  const args = ['serve', GENERATED, '--port', String(opts.port ?? 0), '--data-dir', opts.dataDir];
  if (opts.storage) args.push('--storage', opts.storage);
  return startKgen({ dataDir: opts.dataDir, args: [...args, ...(opts.args ?? [])] });
}

/**
 * A RestConfig for `server`: the credentials of the kubeconfig in its data dir (which replicas
 * sharing a data dir share, and which may name another replica's URL) and `server.url`.
 */
export function configFor(server: KgenServer, overrides: Partial<RestConfig> = {}): RestConfig {
  return { ...loadKubeconfig(server.kubeconfig), server: server.url, qps: 0, ...overrides };
}

export function clientsetFor(server: KgenServer, overrides: Partial<RestConfig> = {}): Clientset {
  return new Clientset(configFor(server, overrides));
}

/** A port that was free a moment ago, so a restarted server can listen where the first one did. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * True for a failure after which a write may or may not have happened: the connection broke, or
 * the server answered 5xx (e.g. 503 "etcd request failed and may or may not have been applied").
 */
export function isUnknownOutcome(err: unknown): boolean {
  if (err instanceof StatusError) return err.code >= 500;
  return err instanceof Error;
}

/** Runs fn until it succeeds or the deadline passes, retrying errors `retry` accepts. */
export async function retrying<T>(fn: () => Promise<T>, retry: (err: unknown) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!retry(err) || Date.now() > deadline) throw err;
      await delay(Math.min(5 * 2 ** attempt, 100) * (0.5 + Math.random()));
    }
  }
}
