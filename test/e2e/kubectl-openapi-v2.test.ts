/**
 * kubectl 1.27 to 1.33 against a server that publishes only `/openapi/v2`, whose parameters are
 * shared as kube's are (`{"$ref": "#/parameters/<key>"}`, runtime/endpoints/openapi/v2-parameters.ts).
 * A proxy in front of `kgen serve` answers 404 for every `/openapi/v3` path, so kubectl takes
 * everything it knows of the schemas from v2 (JSON, or protobuf for 1.27 and 1.28): explain of
 * fields and --recursive, apply with --validate=strict (kubectl finds the server's field
 * validation from the `fieldValidation` parameter, which kube keeps in place for that reason),
 * client-side apply's patch, and a CRD created with kubectl, then explained from the merged v2.
 */
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectlBinary, REPO, removeDir, startKgen, tempDir, type KgenServer } from './harness.js';
import { forgetKubectlDiscovery } from '../support/kubectl-cache.js';
import { execFile } from 'node:child_process';

const VERSIONS = ['1.27', '1.28', '1.29', '1.30', '1.31', '1.32', '1.33'];

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.v2only.example.com
spec:
  group: v2only.example.com
  names: {kind: Gizmo, listKind: GizmoList, plural: gizmos, singular: gizmo}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            description: GizmoSpec is what the gizmo should be.
            type: object
            properties:
              size: {type: integer, description: How big the gizmo is.}
              colour: {type: string, description: The gizmo's colour.}
`;

const deployment = (name: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: 1
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: nginx:1.25${extra}
`;

describe('kubectl with /openapi/v2 only (shared parameters)', () => {
  const dir = tempDir('openapi-v2-only');
  let server: KgenServer;
  let proxy: Server;
  let kubeconfig: string;
  const v3Asked: string[] = [];

  before(async () => {
    server = await startKgen({ generatedDir: join(REPO, 'generated'), dataDir: join(dir, 'data') });
    const { ca, cert, key } = server.credentials();
    const target = new URL(server.url);
    // A plain-HTTP proxy that authenticates as the admin and hides OpenAPI v3.
    proxy = createServer((req, res) => {
      if (req.url!.startsWith('/openapi/v3')) {
        v3Asked.push(req.url!);
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}');
        return;
      }
      const upstream = httpsRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host }, ca, cert, key }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        // As the server does: a watch's headers go out before its first event. Without this,
        // `kubectl wait` saw its watch answered only with the first bookmark, a minute later.
        res.flushHeaders();
        up.pipe(res);
      });
      upstream.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as { port: number }).port;
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: p\n  cluster: {server: "http://127.0.0.1:${port}"}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: c\n  context: {cluster: p, user: u}\ncurrent-context: c\n`,
    );
    forgetKubectlDiscovery(`http://127.0.0.1:${port}`);
    // The v2 document really is shared: kubectl below reads references.
    const v2 = JSON.parse(await (await server.fetch(`${server.url}/openapi/v2`)).text());
    assert.ok(Object.keys(v2.parameters).includes('namespace-vgWSWtn3'));
    // Only the CRD's v2 part is used: created once, with a kubectl of the range.
    const created = await run('1.33', ['create', '-f', '-'], CRD);
    assert.equal(created.code, 0, created.stderr);
    assert.equal((await run('1.33', ['wait', '--for=condition=Established', 'crd/gizmos.v2only.example.com', '--timeout=30s'])).code, 0);
  });

  after(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await server?.stop();
    removeDir(dir);
  });

  /**
   * kubectl `version` through the proxy, with a cache of its own (no OpenAPI from an earlier run);
   * asynchronous, as the proxy runs in this process.
   */
  function run(version: string, args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = execFile(kubectlBinary(version), ['--cache-dir', join(dir, `cache-${version}`), ...args], { timeout: 60_000, env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      });
      child.stdin!.end(input ?? '');
    });
  }

  for (const version of VERSIONS) {
    describe(`kubectl ${version}`, () => {
      it('explains fields and --recursive from /openapi/v2', async () => {
        const field = await run(version, ['explain', 'deployments.spec.replicas', '--output=plaintext-openapiv2']);
        assert.equal(field.code, 0, field.stderr);
        assert.match(field.stdout, /FIELD:\s+replicas\s+<integer>/);
        const recursive = await run(version, ['explain', 'deployments.spec.template.spec', '--recursive', '--output=plaintext-openapiv2']);
        assert.equal(recursive.code, 0, recursive.stderr);
        assert.match(recursive.stdout, /^\s+containers\t<\[\]Object>/m);
        assert.match(recursive.stdout, /^\s+image\t<string>/m);
        // Without v3, the default output falls back to v2 too.
        const plain = await run(version, ['explain', 'deployments.spec.strategy']);
        assert.equal(plain.code, 0, plain.stderr);
        assert.match(plain.stdout, /rollingUpdate/);
      });

      it('applies with --validate=strict: server-side field validation found in v2, client-side apply patches', async () => {
        const name = `web-${version.replace('.', '-')}`;
        const unknown = await run(version, ['apply', '--validate=strict', '-f', '-'], deployment(name, '\n        bogusField: 1'));
        assert.notEqual(unknown.code, 0);
        assert.match(unknown.stderr, /unknown field "spec\.template\.spec\.containers\[0\]\.bogusField"/);
        const created = await run(version, ['apply', '--validate=strict', '-f', '-'], deployment(name));
        assert.equal(created.code, 0, created.stderr);
        // A second apply is a strategic merge patch computed from v2's definitions.
        const patched = await run(version, ['apply', '--validate=strict', '-f', '-'], deployment(name).replace('nginx:1.25', 'nginx:1.26'));
        assert.equal(patched.code, 0, patched.stderr);
        assert.match(patched.stdout, /configured/);
        const got = await run(version, ['get', 'deployment', name, '-o', 'jsonpath={.spec.template.spec.containers[0].image}']);
        assert.equal(got.stdout, 'nginx:1.26');
      });

      it('explains a CRD created with kubectl, from the merged v2', async () => {
        const out = await run(version, ['explain', 'gizmos.spec', '--output=plaintext-openapiv2']);
        assert.equal(out.code, 0, out.stderr);
        assert.match(out.stdout, /GizmoSpec is what the gizmo should be/);
        assert.match(out.stdout, /size\t<integer>/);
      });
    });
  }

  it('kubectl never got an OpenAPI v3 document', () => {
    assert.ok(v3Asked.length > 0, 'kubectl asked for v3 and was told 404');
  });
});
