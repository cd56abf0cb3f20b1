/**
 * Child processes of the benchmarks: every process started here is tracked and killed (by its
 * pid, nothing else) when the benchmark ends or the harness exits. Timing helpers measure wall
 * time from spawn to exit or to a line of output, and the CPU time of exited children.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { REPO, KGEN_BIN } from './paths.js';

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface Proc {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `re` in the output from offset `from` on (waiting for it); rejects on exit or timeout. */
  waitFor(re: RegExp, timeoutMs?: number, from?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after 3 s; resolves when the process is gone. */
  stop(): Promise<void>;
}

export function start(cmd: string, args: string[], opts: SpawnOptions = {}): Proc {
  const child = spawn(cmd, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  live.add(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    if (out.length > 1_000_000) out = out.slice(-500_000);
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) =>
    child.once('close', (code) => {
      live.delete(child);
      for (const l of listeners) l();
      resolve(code);
    }),
  );
  child.once('error', () => undefined);
  const proc: Proc = {
    child,
    output: () => out,
    exited,
    waitFor(re, timeoutMs = 60_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = re.exec(out.slice(from));
          if (m) {
            done();
            resolve(m);
          } else if (!live.has(child)) {
            done();
            reject(new Error(`process exited before printing ${re}:\n${out.slice(-3000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`timed out waiting for ${re}:\n${out.slice(-3000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (!live.has(child)) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
  return proc;
}

/** Starts `node bin/kgen.js <args>`. */
export function kgen(args: string[], opts: SpawnOptions = {}): Proc {
  return start(process.execPath, [KGEN_BIN, ...args], opts);
}

/** CPU seconds (user+sys) of this process's exited children so far, from /proc (10 ms ticks). */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields after the command: state is index 0, so cutime (16th field) is at 13 and cstime at 14.
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

export interface Timed {
  wallMs: number;
  cpuMs: number;
  code: number | null;
  output: string;
}

/** Runs a command to completion; wall time from spawn to exit, CPU time of the process. */
export async function timeRun(cmd: string, args: string[], opts: SpawnOptions = {}): Promise<Timed> {
  const cpu0 = childrenCpuMs();
  const t0 = performance.now();
  const p = start(cmd, args, opts);
  const code = await p.exited;
  const wallMs = performance.now() - t0;
  return { wallMs, cpuMs: childrenCpuMs() - cpu0, code, output: p.output() };
}

/** Stops every process still tracked (the ones this module started). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((child) => {
    const exited = new Promise((r) => child.once('close', r));
    child.kill('SIGKILL');
    return exited;
  }));
}

/** utime + stime of a running process, in µs (from /proc/<pid>/stat; clock ticks of 10 ms). */
export function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}
