/**
 * The server fixture: the synthetic API set of the profile's server size, compiled once per run
 * by `kgen generate` into bench/.work (so its `kgen/...` imports resolve), and helpers to run
 * `kgen serve` on it.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { shared, type BenchContext } from './harness.js';
import { start, timeRun, type Proc } from './procs.js';
import { KGEN_BIN, workDir } from './paths.js';
import { benchKind, synthesize, type KindSpec } from '../synth/index.js';

export interface ServerFixture {
  dir: string;
  generatedDir: string;
  kinds: KindSpec[];
  /** The kind the server benchmarks read and write. */
  kind: KindSpec;
}

export function serverFixture(ctx: BenchContext): Promise<ServerFixture> {
  return shared(ctx, 'server-fixture', async () => {
    const { groups, kindsPerGroup } = ctx.profile.server;
    const dir = workDir('server');
    const apis = join(dir, 'apis');
    const generatedDir = join(dir, 'generated');
    const kinds = synthesize({ groups, kindsPerGroup, apisDir: apis });
    const t = await timeRun(process.execPath, [KGEN_BIN, 'generate', apis, '--out', generatedDir]);
    if (t.code !== 0) throw new Error(`kgen generate of the server fixture failed:\n${t.output.slice(-2000)}`);
    return { dir, generatedDir, kinds, kind: benchKind(kinds) };
  });
}

/**
 * Called by the codegen benchmark with the set it generated (apis in `dir`, output in
 * generatedDir): when the run shares codegen's output (BenchContext.codegenFixture) and no server
 * fixture exists yet, that output becomes it.
 */
export function offerServerFixture(ctx: BenchContext, fx: Omit<ServerFixture, 'kind'>): void {
  if (!ctx.codegenFixture || ctx.shared.has('server-fixture')) return;
  ctx.log(`server fixture: codegen's output in ${fx.generatedDir}`);
  ctx.shared.set('server-fixture', Promise.resolve({ ...fx, kind: benchKind(fx.kinds) }));
}

let plainHttp: string[] | undefined;

/**
 * The flags that make `kgen serve` speak plain HTTP without authentication, so it is compared
 * like for like with a bare node:http server: `--insecure-dev-mode` where this kgen has it (it
 * serves HTTPS with authentication otherwise), nothing for a kgen that only speaks plain HTTP.
 */
export function plainHttpFlags(): string[] {
  if (!plainHttp) {
    const help = spawnSync(process.execPath, [KGEN_BIN, 'serve', '--help'], { encoding: 'utf8' });
    plainHttp = help.stdout.includes('--insecure-dev-mode') ? ['--insecure-dev-mode'] : [];
  }
  return plainHttp;
}

export interface KgenServer {
  proc: Proc;
  url: string;
  /** Wall time from spawn to the "kgen API server: <url>" line. */
  readyMs: number;
  stop(): Promise<void>;
}

/**
 * `node [nodeArgs] bin/kgen.js serve <generated> --port 0 --storage <storage> --data-dir <fresh dir>`
 * (plain HTTP, see plainHttpFlags); waits for its URL. nodeArgs such as --cpu-prof profile it.
 */
export async function serveKgen(fx: ServerFixture, storage: string, extraEnv: NodeJS.ProcessEnv = {}, nodeArgs: string[] = [], serveArgs: string[] = []): Promise<KgenServer> {
  const dataDir = workDir('data');
  const t0 = performance.now();
  const args = [...nodeArgs, KGEN_BIN, 'serve', fx.generatedDir, '--port', '0', '--storage', storage, '--data-dir', dataDir, ...plainHttpFlags(), ...serveArgs];
  const proc = start(process.execPath, args, { env: { ...process.env, ...extraEnv } });
  const m = await proc.waitFor(/kgen API server: (https?:\/\/\S+)/, 60_000);
  const readyMs = performance.now() - t0;
  return { proc, url: m[1]!, readyMs, stop: () => proc.stop() };
}
