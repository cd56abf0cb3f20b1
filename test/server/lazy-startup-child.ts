/**
 * Run by lazy-startup.test.ts under NODE_DEBUG=esm,module with a generated dir: starts a server in
 * insecure dev mode, writes LISTENING to stderr as soon as it listens (the same turn), lists
 * namespaces, writes MARKER, then compiles a CEL rule and reads the front-proxy
 * client certificate, and prints what they gave. Writes to a pipe are synchronous on Linux, so the
 * module loaders' debug lines before the marker are the modules start-up loaded.
 */
// Through cli/serve-runtime.ts, as `kgen serve` does: what that module reaches loads at start too.
import { startServer } from '../../cli/serve-runtime.js';
import { compileSchemaValidator } from '../../runtime/validation/index.js';

const MARKER = '--- kgen started ---';
const LISTENING = '--- kgen listening ---';

const generatedDir = process.argv[2]!;
const server = await startServer({ generatedDir, storage: 'memory:', port: 0, insecureDevMode: true, controllers: false, log: () => undefined });
process.stderr.write(`${LISTENING}\n`);
const res = await fetch(`${server.url}/api/v1/namespaces`);
if (res.status !== 200) throw new Error(`GET namespaces: ${res.status}`);
process.stderr.write(`${MARKER}\n`);
const validator = compileSchemaValidator({ R: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a < 2' }], properties: { a: { type: 'integer' } } } } as never, 'R');
const errors = validator.validate({ a: 3 }).map((e) => e.message);
const cert = server.frontProxy.client.cert;
await server.close();
process.stdout.write(JSON.stringify({ errors, cert: cert.startsWith('-----BEGIN CERTIFICATE-----') }));
