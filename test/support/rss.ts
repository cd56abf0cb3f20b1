/** The resident set size of a process (a server child a test started), read from /proc. */
import { readFileSync } from 'node:fs';

export const MiB = 1024 * 1024;

/** The resident set size of a process, in bytes. */
export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** Samples a process's RSS every 50 ms; stop() returns the peak. */
export function rssSampler(pid: number) {
  let peak = rssOf(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, rssOf(pid));
    },
  };
}
