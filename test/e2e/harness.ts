/**
 * End-to-end harness: runs `kgen serve` as a real process (as a user would) and real kubectl
 * against it with the kubeconfig the server wrote. The server serves HTTPS with credentials it
 * made in its data dir; kubectl uses them through the kubeconfig, and `server.fetch` does for
 * direct requests. Every process started here is killed by stop().
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminCredentials, tlsFetch, type ClientCredentials, type Fetch } from '../support/https.js';
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const KGEN_BIN = join(REPO, 'bin', 'kgen.js');

/** How long a graceful stop (SIGTERM, SIGINT) may take before the server is killed and the test fails. */
const STOP_TIMEOUT_MS = 30_000;

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `kgen-${prefix}-`));
}

export interface KgenServer {
  url: string;
  dataDir: string;
  kubeconfig: string;
  process: ChildProcess;
  output: () => string;
  /** fetch() against the server as the admin (client certificate, CA from the data dir); plain fetch over http. */
  fetch: Fetch;
  /** The admin's credentials from the data dir (read when first asked for). */
  credentials(): ClientCredentials;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServeOptions {
  generatedDir?: string;
  dataDir?: string;
  storage?: string;
  cwd?: string;
  /** How long to wait for the server's URL before killing it and failing; default 60 s. */
  startTimeoutMs?: number;
  /** Command to run instead of `node bin/kgen.js` (e.g. ['npx', 'kgen']). */
  command?: string[];
  args?: string[];
}

/** Starts `kgen serve` on a free port and waits until it prints its URL. */
export async function startKgen(opts: ServeOptions = {}): Promise<KgenServer> {
  const dataDir = opts.dataDir ?? tempDir('data');
  const args = opts.args ?? ['serve', ...(opts.generatedDir ? [opts.generatedDir] : []), '--port', '0', '--data-dir', dataDir];
  if (opts.storage && !opts.args) args.push('--storage', opts.storage);
  const [cmd, ...pre] = opts.command ?? [process.execPath, KGEN_BIN];
  // Its own process group, so stop() also reaches children of wrappers such as npx.
  const child = spawn(cmd!, [...pre, ...args], { cwd: opts.cwd ?? REPO, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env }, detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timeoutMs = opts.startTimeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      // A server that is still starting would keep this test file alive: stop it (its group).
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      reject(new Error(`kgen serve did not start within ${timeoutMs / 1000} s:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /kgen API server: (https?:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kgen serve exited with ${code}:\n${out}`));
    });
  });
  // The port may have served other APIs before: kubectl must not trust what it cached for it.
  forgetKubectlDiscovery(url);
  let admin: ClientCredentials | undefined;
  let adminFetch: Fetch | undefined;
  const credentials = () => (admin ??= adminCredentials(dataDir));
  return {
    url,
    dataDir,
    kubeconfig: join(dataDir, 'kubeconfig'),
    process: child,
    output: () => out,
    credentials,
    fetch: (target, init) => (url.startsWith('https:') ? (adminFetch ??= tlsFetch(credentials()))(target, init) : fetch(target, init)),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      const send = (sig: NodeJS.Signals) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        try {
          process.kill(-child.pid!, sig);
        } catch {
          child.kill(sig);
        }
      };
      send(signal);
      if (signal === 'SIGKILL') return exited;
      // A graceful stop that hangs is a failure of the server, reported as one (not a test
      // cancelled at the runner's timeout): kill it and say so.
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), STOP_TIMEOUT_MS)));
      const result = await Promise.race([exited, hung]);
      clearTimeout(timer);
      if (result !== 'hung') return result;
      send('SIGKILL');
      await exited;
      throw new Error(`kgen serve did not exit within ${STOP_TIMEOUT_MS / 1000} s of ${signal}:\n${out.slice(-4000)}`);
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs kubectl with the given kubeconfig; never throws on a non-zero exit. */
export function kubectl(kubeconfig: string, args: string[], input?: string, env: Record<string, string> = {}): RunResult {
  const r = spawnSync('kubectl', args, {
    input,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, KUBECONFIG: kubeconfig, ...env },
  });
  if (r.error) throw new Error(`kubectl could not be run (it must be on PATH): ${r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Like kubectl(), but fails with both streams when the exit code is not 0. */
export function kubectlOk(kubeconfig: string, args: string[], input?: string, env?: Record<string, string>): string {
  const r = kubectl(kubeconfig, args, input, env);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

/** Splits kubectl's column output into rows of cells. */
export function table(output: string): string[][] {
  return output
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));
}

/**
 * The path of kubectl `version` ("1.27" … "1.33") as this machine installs them; a missing one
 * fails the test (never a skip).
 */
export function kubectlBinary(version: string): string {
  const path = `/usr/lib/google-cloud-sdk/bin/kubectl.${version}`;
  if (!existsSync(path)) throw new Error(`kubectl ${version} is missing at ${path}`);
  return path;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
