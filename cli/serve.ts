/**
 * `kgen serve [generatedDir]`: runs the API server over a generated directory and writes a
 * kubeconfig for kubectl. Stops cleanly (exit 0) on SIGINT/SIGTERM.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';

interface ServeOptions {
  port: number;
  host: string;
  storage?: string;
  dataDir: string;
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
    host: opts.host,
    port: opts.port,
    log: (line) => console.error(line),
  });
  console.log(`kgen API server: ${server.url}`);
  if (server.kubeconfigPath) {
    console.log(`kubeconfig: ${server.kubeconfigPath}`);
    console.log(`try: KUBECONFIG=${server.kubeconfigPath} kubectl api-resources`);
  }
  const stop = (signal: NodeJS.Signals) => {
    console.error(`received ${signal}, shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`error while shutting down: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the generated APIs the way kube-apiserver does (kubectl works against it)')
    .argument('[generatedDir]', 'directory written by `kgen generate`', './generated')
    .option('--port <n>', 'port to listen on (0 picks a free port)', parsePort, 8080)
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--storage <url>', "storage: 'memory:', 'sqlite:' (<data-dir>/kgen.db) or 'sqlite:<path>'", 'sqlite:')
    .option('--data-dir <dir>', 'directory for the database and the kubeconfig', '.kgen')
    .action(async (generatedDir: string, opts: ServeOptions) => {
      try {
        await serve(generatedDir, opts);
      } catch (err) {
        console.error(`kgen serve: ${(err as Error).message}`);
        process.exitCode = 1;
      }
    });
}
