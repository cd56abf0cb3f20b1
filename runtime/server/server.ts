/**
 * startServer: loads the generated code and documents, installs every group/version, makes sure
 * the system namespaces exist, and serves kube's API over HTTP with fastify.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startControllers, type RunningControllers } from '../controllers/index.js';
import { ensureSystemNamespaces } from '../registry/namespaces.js';
import { openStorage } from '../storage/factory.js';
import type { Cachers, SharedCacherOptions } from '../storage/cacher/index.js';
import type { Storage } from '../storage/interface.js';
import { DiscoveryDocuments } from './discovery.js';
import { APIServerHandler } from './handler.js';
import type { HealthCheck } from './health.js';
import { HTTPServer } from './http.js';
import { APIInstaller } from './installer.js';
import { writeKubeconfig } from './kubeconfig.js';
import { OpenAPIDocuments } from './openapi.js';

export interface ServerOptions {
  /** The directory `kgen generate` wrote (holds index.ts, openapi/, discovery/). */
  generatedDir: string;
  /** A storage URL (`memory:`, `sqlite:`, `sqlite:<path>`) or an open Storage. Default `sqlite:`. */
  storage?: string | Storage;
  /** Where `sqlite:` keeps its database and where the kubeconfig is written. Default `.kgen`. */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. Default 8080. */
  port?: number;
  log?: (line: string) => void;
  /** Run the garbage collector and the namespace controller in process. Default true. */
  controllers?: boolean;
  /** Watch cache options (event capacity, bookmark interval, …); false disables the caches. */
  watchCache?: SharedCacherOptions | false;
}

export interface RunningServer {
  url: string;
  port: number;
  storage: Storage;
  /** The kubeconfig written for this server; set when dataDir was given. */
  kubeconfigPath?: string;
  /** The in-process controllers, unless disabled. */
  controllers?: RunningControllers;
  /** The per-resource watch caches, unless disabled. */
  cachers?: Cachers;
  close(): Promise<void>;
}

interface GeneratedModule {
  installAll(installer: APIInstaller): void;
}

/** Imports `<generatedDir>/index.ts` (the process runs under tsx). */
async function loadGenerated(generatedDir: string): Promise<GeneratedModule> {
  const entry = join(generatedDir, 'index.ts');
  if (!existsSync(entry)) throw new Error(`${entry} not found: run \`kgen generate\` first`);
  const mod = (await import(pathToFileURL(entry).href)) as Partial<GeneratedModule>;
  if (typeof mod.installAll !== 'function') throw new Error(`${entry} does not export installAll(installer)`);
  return mod as GeneratedModule;
}

function healthChecks(storage: Storage, isShuttingDown: () => boolean) {
  const ping: HealthCheck = { name: 'ping', check: () => undefined };
  const log: HealthCheck = { name: 'log', check: () => undefined };
  const store: HealthCheck = { name: 'storage', check: () => storage.healthCheck() };
  const shutdown: HealthCheck = {
    name: 'shutdown',
    check: () => {
      if (isShuttingDown()) throw new Error('server is shutting down');
    },
  };
  return { healthz: [ping, log, store], livez: [ping, log, store], readyz: [ping, log, store, shutdown] };
}

function urlOf(host: string, port: number): string {
  const h = host.includes(':') ? `[${host}]` : host;
  return `http://${h === '0.0.0.0' ? '127.0.0.1' : h === '[::]' ? '[::1]' : h}:${port}`;
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const generatedDir = resolve(opts.generatedDir);
  const dataDir = resolve(opts.dataDir ?? '.kgen');
  const log = opts.log ?? (() => undefined);
  const ownsStorage = typeof opts.storage !== 'object';
  const storage = typeof opts.storage === 'object' ? opts.storage : await openStorage(opts.storage ?? 'sqlite:', { dataDir });
  let shuttingDown = false;
  let installer: APIInstaller | undefined;
  try {
    installer = new APIInstaller({ generatedDir, storage, watchCache: opts.watchCache });
    (await loadGenerated(generatedDir)).installAll(installer);
    const namespaces = installer.namespaceStore();
    if (namespaces) await ensureSystemNamespaces(namespaces);
    const handler = new APIServerHandler({
      installer,
      discovery: new DiscoveryDocuments(generatedDir, installer.groupVersions()),
      openapi: new OpenAPIDocuments(generatedDir, installer.groupVersions()),
      health: healthChecks(storage, () => shuttingDown),
    });
    const http = new HTTPServer(handler);
    const host = opts.host ?? '127.0.0.1';
    await http.app.listen({ host, port: opts.port ?? 8080 });
    const address = http.app.server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? 8080);
    const url = urlOf(host, port);
    const kubeconfigPath = opts.dataDir !== undefined ? writeKubeconfig(dataDir, { server: url }) : undefined;
    log(`kgen API server listening on ${url}`);
    const controllers = opts.controllers === false ? undefined : startControllers({ apis: installer, log });
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      storage,
      kubeconfigPath,
      controllers,
      cachers: installer.cachers,
      close() {
        closing ??= (async () => {
          shuttingDown = true;
          await controllers?.stop();
          await http.app.close();
          await installer?.close();
          if (ownsStorage) await storage.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await installer?.close();
    if (ownsStorage) await storage.close();
    throw err;
  }
}
