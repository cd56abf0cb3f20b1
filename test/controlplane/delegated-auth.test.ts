/**
 * The pieces of aggregated mode a two-server e2e test does not reach: the
 * extension-apiserver-authentication ConfigMap lookup (what it fills in, what the flags keep,
 * a missing ConfigMap, a forbidden one, --authentication-skip-lookup), in-cluster configuration,
 * the always-allow paths, and the CLI's flag rules and delegating TTL defaults.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Command } from 'commander';
import { addAuthFlags } from '../../cli/serve-auth.js';
import { addDelegationFlags, delegationServerOptions } from '../../cli/serve-delegation.js';
import { addSecurityFlags } from '../../cli/serve-security.js';
import type { AuthorizationAttributes } from '../../runtime/api/auth.js';
import { alwaysAllowPathsAuthorizer } from '../../runtime/authorization/delegating.js';
import { newCA, newSignedCertificate } from '../../runtime/controlplane/certs.js';
import { AUTHENTICATION_CONFIGMAP_PATH, prepareDelegatedAuth } from '../../runtime/controlplane/delegated-auth.js';
import type { IncomingAPIRequest } from '../../runtime/server/handler.js';
import { inClusterEndpoint } from '../../runtime/webhook/kubeconfig-endpoint.js';

const dir = mkdtempSync(join(tmpdir(), 'kgen-delegated-'));
const proxyCA = newCA('cluster-front-proxy-ca');
const proxyClient = newSignedCertificate(proxyCA, { commonName: 'aggregator', usage: 'client' });
const clusterCA = newCA('cluster-ca');
let server: Server;
let answer: { status: number; body: unknown } = { status: 404, body: {} };
const seen: { method: string; url: string; authorization?: string }[] = [];
let kubeconfig: string;

before(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'u', user: { token: 'sa-token' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'c',
    }),
  );
});

after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A request as the TLS layer hands it over: with the proxy's certificate and the headers. */
function proxied(headers: Record<string, string>): IncomingAPIRequest {
  return {
    url: '/apis/wardle.example.com/v1alpha1/flunders',
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    clientCertificate: { verified: true, commonName: 'aggregator', organizations: [], raw: Buffer.from(proxyClient.cert.replace(/-----[^-]+-----|\s/g, ''), 'base64'), extKeyUsage: ['1.3.6.1.5.5.7.3.2'] },
  } as unknown as IncomingAPIRequest;
}

describe('the extension-apiserver-authentication ConfigMap', () => {
  it('fills in the CAs, allowed names and header names the flags leave out', async () => {
    answer = {
      status: 200,
      body: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        data: {
          'client-ca-file': clusterCA.cert,
          'requestheader-client-ca-file': proxyCA.cert,
          'requestheader-allowed-names': '["aggregator"]',
          'requestheader-username-headers': '["X-Who"]',
          'requestheader-group-headers': '["X-Groups"]',
          'requestheader-extra-headers-prefix': '["X-Extra-"]',
        },
      },
    };
    seen.length = 0;
    const auth = await prepareDelegatedAuth({ authenticationKubeconfig: kubeconfig, authorizationKubeconfig: kubeconfig });
    assert.deepEqual(seen, [{ method: 'GET', url: AUTHENTICATION_CONFIGMAP_PATH, authorization: 'Bearer sa-token' }]);
    assert.equal(auth.clientCA, clusterCA.cert);
    assert.deepEqual(auth.requestHeader?.allowedNames, ['aggregator']);
    assert.deepEqual(auth.requestHeader?.usernameHeaders, ['X-Who']);
    assert.ok(auth.clientCAs?.includes(proxyCA.cert.trim()) && auth.clientCAs.includes(clusterCA.cert.trim()));
    const result = await auth.authenticator.authenticate(proxied({ 'X-Who': 'alice', 'X-Groups': 'devs', 'X-Extra-Scopes': 'a' }));
    assert.deepEqual(result, { user: { username: 'alice', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } } });
  });

  it('keeps what the flags say over the ConfigMap', async () => {
    const caFile = join(dir, 'proxy-ca.crt');
    writeFileSync(caFile, proxyCA.cert);
    const auth = await prepareDelegatedAuth({
      authenticationKubeconfig: kubeconfig,
      authorizationKubeconfig: kubeconfig,
      requestHeader: { clientCAFile: caFile, allowedNames: ['someone-else'] },
    });
    // The client CA was still looked up (it was not given); the allowed names are the flag's.
    assert.equal(auth.clientCA, clusterCA.cert);
    assert.deepEqual(auth.requestHeader?.allowedNames, ['someone-else']);
    const refused = await auth.authenticator.authenticate(proxied({ 'X-Who': 'alice' }));
    assert.ok(refused && 'error' in refused);
    assert.match(refused.error, /^x509: subject with cn=aggregator is not in the allowed list/);
  });

  it('is not required: a missing ConfigMap leaves the flags alone (as a kgen front server without ConfigMap answers)', async () => {
    answer = { status: 404, body: { kind: 'Status', code: 404 } };
    const lines: string[] = [];
    const auth = await prepareDelegatedAuth({ authenticationKubeconfig: kubeconfig, authorizationKubeconfig: kubeconfig, log: (l) => lines.push(l) });
    assert.equal(auth.requestHeader, undefined);
    assert.equal(auth.clientCA, undefined);
    assert.match(lines.join('\n'), /has no configmap kube-system\/extension-apiserver-authentication/);
  });

  it('stops the start with kube\'s hint when reading it is forbidden', async () => {
    answer = { status: 403, body: { kind: 'Status', code: 403 } };
    await assert.rejects(prepareDelegatedAuth({ authenticationKubeconfig: kubeconfig, authorizationKubeconfig: kubeconfig }), /--role=extension-apiserver-authentication-reader/);
  });

  it('is not read with --authentication-skip-lookup', async () => {
    seen.length = 0;
    await prepareDelegatedAuth({ authenticationKubeconfig: kubeconfig, authorizationKubeconfig: kubeconfig, skipLookup: true });
    assert.deepEqual(seen, []);
  });
});

describe('in-cluster configuration', () => {
  it('reads the service host, port, token and CA as client-go does', () => {
    const sa = join(dir, 'sa');
    rmSync(sa, { recursive: true, force: true });
    mkdirSync(sa);
    writeFileSync(join(sa, 'token'), 'pod-token\n');
    writeFileSync(join(sa, 'ca.crt'), clusterCA.cert);
    const endpoint = inClusterEndpoint('--authentication-kubeconfig', { env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' }, serviceAccountDir: sa });
    assert.equal(endpoint.url.href, 'https://10.0.0.1/');
    assert.equal(endpoint.token, 'pod-token');
    assert.equal(endpoint.ca?.toString(), clusterCA.cert);
    const v6 = inClusterEndpoint('x', { env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443' }, serviceAccountDir: sa });
    assert.equal(v6.url.host, '[fd00::1]:6443');
  });

  it('fails with client-go\'s message outside a cluster', () => {
    assert.throws(() => inClusterEndpoint('--authorization-kubeconfig', { env: {}, serviceAccountDir: dir }), /--authorization-kubeconfig: unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined/);
  });
});

describe('--authorization-always-allow-paths', () => {
  const attrs = (path: string, isResourceRequest = false): AuthorizationAttributes => ({
    user: { username: 'system:anonymous', groups: [] },
    verb: 'get',
    isResourceRequest,
    path,
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  });

  it('allows exactly the paths, or below a trailing *, and never resources', () => {
    const authorizer = alwaysAllowPathsAuthorizer(['/healthz', '/readyz', '/metrics/*']);
    const decide = (path: string, resource = false) => (authorizer.authorize(attrs(path, resource)) as { decision: string }).decision;
    assert.equal(decide('/healthz'), 'Allow');
    assert.equal(decide('/healthz/ping'), 'NoOpinion');
    assert.equal(decide('/metrics/x'), 'Allow');
    assert.equal(decide('/livez'), 'NoOpinion');
    assert.equal(decide('/healthz', true), 'NoOpinion');
    assert.throws(() => alwaysAllowPathsAuthorizer(['/a*b']), /only trailing \* allowed/);
  });
});

describe('kgen serve flags for aggregated mode', () => {
  const parse = (args: string[]) => {
    const command = addDelegationFlags(addAuthFlags(addSecurityFlags(new Command('serve').exitOverride())));
    let opts: Record<string, unknown> = {};
    command.action((o) => {
      opts = o;
    });
    command.parse(args, { from: 'user' });
    return opts as unknown as Parameters<typeof delegationServerOptions>[0];
  };

  it('is off without --aggregated or a delegation kubeconfig', () => {
    assert.deepEqual(delegationServerOptions(parse([])), {});
  });

  it('uses the delegating defaults: 10 s caches and the health paths', () => {
    const { delegatedAuth } = delegationServerOptions(parse(['--authentication-kubeconfig', 'k']));
    assert.deepEqual(
      [delegatedAuth?.tokenCacheTTLMs, delegatedAuth?.authorizedTTLMs, delegatedAuth?.unauthorizedTTLMs, delegatedAuth?.alwaysAllowPaths],
      [10_000, 10_000, 10_000, ['/healthz', '/readyz', '/livez']],
    );
    assert.equal(delegatedAuth?.authorizationKubeconfig, undefined, 'in-cluster by default');
  });

  it('takes given TTLs, paths and --authentication-skip-lookup', () => {
    const { delegatedAuth } = delegationServerOptions(
      parse(['--aggregated', '--authorization-webhook-cache-authorized-ttl', '1m', '--authorization-always-allow-paths', '/healthz,/metrics', '--authentication-skip-lookup']),
    );
    assert.equal(delegatedAuth?.authorizedTTLMs, 60_000);
    assert.equal(delegatedAuth?.unauthorizedTTLMs, 10_000);
    assert.deepEqual(delegatedAuth?.alwaysAllowPaths, ['/healthz', '/metrics']);
    assert.equal(delegatedAuth?.skipLookup, true);
  });

  it('refuses the server\'s own authentication and authorization flags', () => {
    assert.throws(() => delegationServerOptions(parse(['--aggregated', '--token-auth-file', 't.csv', '--authorization-mode', 'AlwaysAllow'])), /--token-auth-file, --authorization-mode: not for an aggregated server/);
  });
});
