/**
 * Helpers for the kubectl workflow suites: manifests, kubectl as a background process (for
 * `get -w` and `wait`, which must run while another kubectl makes a change), and small editor
 * scripts for `kubectl edit`. Every background process is killed by its stop().
 */
import { spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WidgetManifest {
  name: string;
  namespace?: string;
  replicas?: number;
  color?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
}

/** A Widget as YAML, the way a user would write it. */
export function widgetYAML(w: WidgetManifest): string {
  const lines = ['apiVersion: widgets.example.com/v1', 'kind: Widget', 'metadata:', `  name: ${w.name}`];
  if (w.namespace) lines.push(`  namespace: ${w.namespace}`);
  if (w.labels && Object.keys(w.labels).length > 0) {
    lines.push('  labels:');
    for (const [k, v] of Object.entries(w.labels)) lines.push(`    ${k}: ${JSON.stringify(v)}`);
  }
  if (w.finalizers) {
    lines.push('  finalizers:');
    for (const f of w.finalizers) lines.push(`  - ${f}`);
  }
  lines.push('spec:');
  lines.push(`  replicas: ${w.replicas ?? 1}`);
  lines.push(`  color: ${w.color ?? 'blue'}`);
  return `${lines.join('\n')}\n`;
}

export interface BackgroundKubectl {
  /** Everything printed so far on stdout. */
  stdout(): string;
  stderr(): string;
  /** Resolves with stdout (or stderr) once it matches re; rejects with both streams after timeoutMs. */
  waitFor(re: RegExp, timeoutMs?: number, stream?: 'stdout' | 'stderr'): Promise<string>;
  /** Resolves with the exit code once kubectl exits by itself. */
  exited: Promise<number | null>;
  /** Kills kubectl (if still running) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts kubectl without waiting for it, e.g. `get wd -w`. */
export function kubectlBackground(kubeconfig: string, args: string[]): BackgroundKubectl {
  const child = spawn('kubectl', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: kubeconfig } });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (d) => {
    out += d;
    for (const l of listeners) l();
  });
  child.stderr.on('data', (d) => {
    err += d;
    for (const l of listeners) l();
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(re, timeoutMs = 10_000, stream = 'stdout') {
      return new Promise((resolve, reject) => {
        const check = () => {
          const text = stream === 'stdout' ? out : err;
          if (!re.test(text)) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(text);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`kubectl ${args.join(' ')}: no ${stream} matching ${re} within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A KUBE_EDITOR script that runs `sed -i <expression>` on the file kubectl hands it. */
export function sedEditor(dir: string, name: string, expression: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\nexec sed -i ${shellQuote(expression)} "$1"\n`);
  chmodSync(path, 0o755);
  return path;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
