/**
 * core/v1 Services as kube has them, over HTTP: cluster IPs allocated from the service range
 * (10.0.0.0/24 by default, as kube-apiserver's --service-cluster-ip-range), validation per type
 * and clusterIP immutability, with kube's paths and messages (ValidateService /
 * ValidateServiceUpdate).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { advertisedIP } from '../../runtime/registry/kubernetes-service.js';
import { FIXTURE_DIR, startTestServer, type TestServer } from '../server/testserver.js';

const SVCS = '/api/v1/namespaces/default/services';
const svc = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });

describe('Service validation', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const create = (name: string, spec: Record<string, unknown>) => t.request('POST', SVCS, { body: svc(name, spec) });

  it('serves default/kubernetes with Endpoints naming the server, on the first address of the range', async () => {
    const svcObj = (await t.request('GET', `${SVCS}/kubernetes`)).body;
    assert.deepEqual(svcObj.spec, { type: 'ClusterIP', clusterIP: '10.0.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: t.server.port }] });
    assert.deepEqual(svcObj.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
    const eps = (await t.request('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).body;
    assert.deepEqual(eps.subsets, [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: t.server.port, protocol: 'TCP' }] }]);
  });

  it('keeps default/kubernetes across restarts over the same storage', async () => {
    const { startServer } = await import('../../runtime/controlplane/index.js');
    const { MemoryStorage } = await import('../../runtime/storage/memory.js');
    const storage = new MemoryStorage();
    const first = await startServer({ generatedDir: FIXTURE_DIR, storage, port: 0, insecureDevMode: true, controllers: false });
    await first.close();
    const second = await startServer({ generatedDir: FIXTURE_DIR, storage, port: 0, insecureDevMode: true, controllers: false });
    try {
      const eps = await (await fetch(`${second.url}/api/v1/namespaces/default/endpoints/kubernetes`)).json();
      assert.equal(eps.subsets[0].ports[0].port, second.port, 'the Endpoints name the running server');
    } finally {
      await second.close();
      await storage.close();
    }
  });

  it('names every running server in the Endpoints, under leases: a stopped one leaves, a dead one expires', async () => {
    const { startServer } = await import('../../runtime/controlplane/index.js');
    const { MemoryStorage } = await import('../../runtime/storage/memory.js');
    const storage = new MemoryStorage();
    const opts = { generatedDir: FIXTURE_DIR, storage, port: 0, insecureDevMode: true, controllers: false } as const;
    const first = await startServer(opts);
    const second = await startServer({ ...opts, endpointLease: { intervalMs: 50 } });
    const endpoints = async () => (await (await fetch(`${second.url}/api/v1/namespaces/default/endpoints/kubernetes`)).json()).subsets;
    const subset = (ip: string, port: number) => ({ addresses: [{ ip }], ports: [{ name: 'https', port, protocol: 'TCP' }] });
    const until = async (what: string, ok: (subsets: unknown) => boolean) => {
      for (let i = 0; i < 100 && !ok(await endpoints()); i++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(ok(await endpoints()), `${what}: ${JSON.stringify(await endpoints())}`);
    };
    try {
      assert.deepEqual(await endpoints(), [first.port, second.port].sort((a, b) => a - b).map((p) => subset('127.0.0.1', p)), 'both servers, one subset per port');
      await first.close();
      assert.deepEqual(await endpoints(), [subset('127.0.0.1', second.port)], 'a stopped server removes itself');
      // A server that died leaves its lease behind; it is listed until the lease expires.
      const lease = {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name: '127.0.0.2:1', annotations: { 'kgen.io/lease-renew-time': new Date().toISOString(), 'kgen.io/lease-duration-seconds': '0.5' } },
        subsets: [subset('127.0.0.2', 1)],
      };
      await storage.create('/registry/masterleases/127.0.0.2:1', lease);
      await until('the other server is listed while its lease lives', (s) => JSON.stringify(s) === JSON.stringify([subset('127.0.0.2', 1), subset('127.0.0.1', second.port)]));
      await until('an expired lease is dropped', (s) => JSON.stringify(s) === JSON.stringify([subset('127.0.0.1', second.port)]));
      assert.equal(await storage.get('/registry/masterleases/127.0.0.2:1', { ignoreNotFound: true }), undefined, 'and deleted');
    } finally {
      await second.close();
      await storage.close();
    }
  });

  it('allocates cluster IPs from the range; a requested one must be in it and free', async () => {
    const a = await create('ip-a', { ports: [{ port: 80 }] });
    assert.equal(a.status, 201, a.text);
    assert.match(a.body.spec.clusterIP, /^10\.0\.0\.\d+$/);
    const dry = await t.request('POST', `${SVCS}?dryRun=All`, { body: svc('ip-dry', { ports: [{ port: 80 }] }) });
    assert.equal(dry.status, 201);
    const b = await create('ip-b', { ports: [{ port: 80 }] });
    assert.notEqual(b.body.spec.clusterIP, a.body.spec.clusterIP);
    if (dry.body.spec.clusterIP !== b.body.spec.clusterIP) {
      const afterDry = await create('ip-dry-after', { clusterIP: dry.body.spec.clusterIP, ports: [{ port: 80 }] });
      assert.equal(afterDry.status, 201, 'a dry run does not keep its address');
    }
    const taken = await create('ip-c', { clusterIP: a.body.spec.clusterIP, ports: [{ port: 80 }] });
    assert.equal(taken.status, 422);
    assert.equal(taken.body.message, `Service "ip-c" is invalid: spec.clusterIPs: Invalid value: []string{"${a.body.spec.clusterIP}"}: failed to allocate IP ${a.body.spec.clusterIP}: provided IP is already allocated`);
    const outside = await create('ip-d', { clusterIP: '192.168.0.1', ports: [{ port: 80 }] });
    assert.equal(outside.status, 422);
    assert.match(outside.body.message, /the provided IP \(192\.168\.0\.1\) is not in the valid range\. The range of valid IPs is 10\.0\.0\.0\/24/);
    const concurrent = await Promise.all(['ip-e', 'ip-f', 'ip-g'].map((n) => create(n, { ports: [{ port: 80 }] })));
    const ips = concurrent.map((r) => r.body.spec.clusterIP);
    assert.equal(new Set(ips).size, 3, `concurrent creates get distinct addresses: ${ips.join(' ')}`);
    assert.equal((await t.request('DELETE', `${SVCS}/ip-a`)).status, 200);
    const reused = await create('ip-h', { clusterIP: a.body.spec.clusterIP, ports: [{ port: 80 }] });
    assert.equal(reused.status, 201, 'a deleted Service gives its address back');
  });

  it('allocates node ports for NodePort and LoadBalancer Services from the node port range, with kube\'s errors', async () => {
    const np = await create('np-a', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] });
    assert.equal(np.status, 201, np.text);
    const ports = np.body.spec.ports.map((p: { nodePort: number }) => p.nodePort);
    assert.ok(ports.every((p: number) => p >= 30086 && p <= 32767), `random, above the static band 30000-30085: ${ports}`);
    assert.notEqual(ports[0], ports[1]);
    const lb = await create('lb-a', { type: 'LoadBalancer', ports: [{ port: 443 }] });
    assert.equal(typeof lb.body.spec.ports[0].nodePort, 'number', 'LoadBalancer Services get node ports too');
    const plain = await create('cip-a', { ports: [{ port: 80 }] });
    assert.equal(plain.body.spec.ports[0].nodePort, undefined, 'ClusterIP Services get none');
    const fixed = await create('np-b', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
    assert.equal(fixed.body.spec.ports[0].nodePort, 30080);
    const taken = await create('np-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] });
    assert.equal(taken.status, 422);
    assert.equal(taken.body.message, 'Service "np-c" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await create('np-d', { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] });
    assert.equal(outside.body.message, 'Service "np-d" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767');
    const dry = await t.request('POST', `${SVCS}?dryRun=All`, { body: svc('np-dry', { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] }) });
    assert.equal(dry.status, 201);
    assert.equal((await create('np-e', { type: 'NodePort', ports: [{ port: 80, nodePort: 30081 }] })).status, 201, 'a dry run keeps no port');
    assert.equal((await t.request('DELETE', `${SVCS}/np-b`)).status, 200);
    assert.equal((await create('np-f', { type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] })).status, 201, 'a deleted Service gives its node ports back');
    const failed = await create('np-g', { type: 'NodePort', ports: [{ name: 'x', port: 80, nodePort: 30082 }, { name: 'x', port: 81 }] }); // refused by validation, after allocation
    assert.equal(failed.status, 422);
    assert.equal((await create('np-h', { type: 'NodePort', ports: [{ port: 80, nodePort: 30082 }] })).status, 201, 'a failed create keeps nothing');
  });

  // Addresses below 10.0.0.17 are kube's static band: random allocation never hands them out while
  // the rest of the range is free, so a test that asks for one cannot collide with its neighbours.
  it('gives back an address or node port an update drops (kube\'s AfterUpdate)', async () => {
    const patch = (name: string, body: unknown) => t.request('PATCH', `${SVCS}/${name}`, { body, contentType: 'application/merge-patch+json' });
    assert.equal((await create('upd-a', { clusterIP: '10.0.0.12', ports: [{ port: 80 }] })).status, 201);
    const ext = await patch('upd-a', { spec: { type: 'ExternalName', externalName: 'db.example.com' } });
    assert.equal(ext.status, 200, ext.text);
    assert.equal(ext.body.spec.clusterIP, undefined);
    assert.equal((await create('upd-b', { clusterIP: '10.0.0.12', ports: [{ port: 80 }] })).status, 201, 'the address is free at once');
    assert.equal((await create('upd-c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] })).status, 201);
    const plain = await patch('upd-c', { spec: { type: 'ClusterIP', ports: [{ port: 80 }] } });
    assert.equal(plain.status, 200, plain.text);
    assert.equal((await create('upd-d', { type: 'NodePort', ports: [{ port: 80, nodePort: 30090 }] })).status, 201, 'the node port is free at once');
  });

  it('requires ports unless headless or ExternalName, and names when there are several', async () => {
    const none = await create('noports', { type: 'ClusterIP' });
    assert.equal(none.status, 422);
    assert.equal(none.body.message, 'Service "noports" is invalid: spec.ports: Required value');
    const headless = await create('headless', { clusterIP: 'None' });
    assert.equal(headless.status, 201);
    assert.equal(headless.body.spec.clusterIP, 'None');
    const unnamed = await create('unnamed', { ports: [{ port: 80 }, { port: 81 }] });
    assert.equal(unnamed.body.message, 'Service "unnamed" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]');
    const dup = await create('dup', { ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] });
    assert.equal(dup.body.message, 'Service "dup" is invalid: spec.ports[1].name: Duplicate value: "a"');
    const nodePort = await create('np', { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30080 }] });
    assert.equal(nodePort.body.message, "Service \"np\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'");
  });

  it('validates ExternalName services', async () => {
    const ext = await create('ext', { type: 'ExternalName', externalName: 'db.example.com.' });
    assert.equal(ext.status, 201);
    assert.equal(ext.body.spec.clusterIP, undefined, 'no cluster IP for ExternalName');
    const missing = await create('ext2', { type: 'ExternalName' });
    assert.equal(missing.body.message, 'Service "ext2" is invalid: spec.externalName: Required value');
    const bad = await create('ext3', { type: 'ExternalName', externalName: 'Not_A_Host', clusterIP: '10.0.0.9' });
    assert.equal(bad.status, 422);
    assert.deepEqual(
      bad.body.details.causes.map((c: { field: string }) => c.field),
      ['spec.clusterIPs', 'spec.externalName'],
    );
    assert.match(bad.body.message, /spec\.clusterIPs: Forbidden: may not be set for ExternalName services/);
    assert.match(bad.body.message, /spec\.externalName: Invalid value: "Not_A_Host": a lowercase RFC 1123 subdomain/);
  });

  it("refuses 'None' for NodePort and LoadBalancer", async () => {
    const lb = await create('lb', { type: 'LoadBalancer', clusterIP: 'None', ports: [{ port: 80 }] });
    assert.equal(lb.body.message, `Service "lb" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`);
  });

  it('defaults a port\'s targetPort to its port, as SetDefaults_Service (absent, 0 or "")', async () => {
    const r = await create('targets', { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81, targetPort: 0 }, { name: 'c', port: 82, targetPort: '' }, { name: 'd', port: 83, targetPort: 'web' }] });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      r.body.spec.ports.map((p: { targetPort: unknown }) => p.targetPort),
      [80, 81, 82, 'web'],
    );
    const updated = await t.request('PUT', `${SVCS}/targets`, { body: { ...r.body, spec: { ...r.body.spec, ports: [{ name: 'a', port: 90 }] } } });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.spec.ports[0].targetPort, 90);
  });

  it('warns (299) as kube\'s GetWarningsForService: a cluster IP not in standard form, a deprecated annotation, an ignored externalName', async () => {
    const warnings = (res: { headers: Headers }) => (res.headers.get('warning') ?? '').split(/, (?=299 )/).filter((w) => w !== '');
    const as299 = (...ws: string[]) => ws.map((w) => `299 - ${JSON.stringify(w)}`);
    // In kube's static band (below 10.0.0.17), which random allocation leaves to requests.
    const zeros = await t.request('POST', SVCS, {
      body: { ...svc('warn-zeros', { clusterIP: '10.0.0.015', externalName: 'ignored.example.com', ports: [{ port: 80 }] }), metadata: { name: 'warn-zeros', annotations: { 'service.kubernetes.io/topology-aware-hints': 'auto' } } },
    });
    assert.equal(zeros.status, 201, zeros.text);
    assert.deepEqual(
      warnings(zeros),
      as299(
        'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
        'spec.clusterIPs[0]: non-standard IP address "10.0.0.015" will be considered invalid in a future Kubernetes release: use "10.0.0.15"',
        'spec.externalName is ignored when spec.type is not "ExternalName"',
      ),
    );
    // An allocated address is in standard form; ExternalName uses its externalName.
    const plain = await create('warn-none', { ports: [{ port: 80 }] });
    assert.equal(plain.status, 201, plain.text);
    assert.equal(plain.headers.get('warning'), null);
    const external = await create('warn-external', { type: 'ExternalName', externalName: 'db.example.com' });
    assert.equal(external.status, 201, external.text);
    assert.equal(external.headers.get('warning'), null);
    // On update too.
    const patched = await t.request('PATCH', `${SVCS}/warn-none`, { body: { spec: { externalName: 'x.example.com' } }, contentType: 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(warnings(patched), as299('spec.externalName is ignored when spec.type is not "ExternalName"'));
  });

  it('one address, however spelled, is one Service\'s: 10.0.0.016 after 10.0.0.16 is already allocated', async () => {
    const first = await create('spelled-plain', { clusterIP: '10.0.0.16', ports: [{ port: 80 }] });
    assert.equal(first.status, 201, first.text);
    const second = await create('spelled-zeros', { clusterIP: '10.0.0.016', ports: [{ port: 80 }] });
    assert.equal(second.status, 422, second.text);
    assert.match(second.body.message, /spec\.clusterIPs: Invalid value: \[\]string\{"10\.0\.0\.016"\}: failed to allocate IP 10\.0\.0\.016: provided IP is already allocated/);
  });

  it('reads a cluster IP as netutils.ParseIPSloppy does: IPv4-mapped IPv6 and 4-digit octets are IPv4', async () => {
    // In kube's static band (below 10.0.0.17), which random allocation leaves to requests.
    const mapped = await create('mapped', { clusterIP: '::ffff:10.0.0.10', ports: [{ port: 80 }] });
    assert.equal(mapped.status, 201, mapped.text);
    assert.equal(mapped.body.spec.clusterIP, '::ffff:10.0.0.10', 'kept as sent, as kube keeps it');
    assert.equal(
      mapped.headers.get('warning'),
      `299 - ${JSON.stringify('spec.clusterIPs[0]: non-standard IP address "::ffff:10.0.0.10" will be considered invalid in a future Kubernetes release: use "10.0.0.10"')}`,
    );
    const again = await create('mapped-again', { clusterIP: '10.0.0.0010', ports: [{ port: 80 }] });
    assert.equal(again.status, 422, again.text);
    assert.match(again.body.message, /failed to allocate IP 10\.0\.0\.0010: provided IP is already allocated/);
    const digits = await create('four-digits', { clusterIP: '010.0000.000.0011', ports: [{ port: 80 }] });
    assert.equal(digits.status, 201, digits.text);
    const outside = await create('mapped-outside', { clusterIP: '::ffff:10.0.1.1', ports: [{ port: 80 }] });
    assert.equal(outside.status, 422, outside.text);
    assert.match(outside.body.message, /the provided IP \(::ffff:10\.0\.1\.1\) is not in the valid range/);
  });

  it('keeps spec.clusterIP once set', async () => {
    assert.equal((await create('fixed', { clusterIP: '10.0.0.13', ports: [{ port: 53 }] })).status, 201);
    const changed = await t.request('PATCH', `${SVCS}/fixed`, { body: { spec: { clusterIP: '10.0.0.14' } }, contentType: 'application/merge-patch+json' });
    assert.equal(changed.status, 422);
    assert.equal(changed.body.message, 'Service "fixed" is invalid: spec.clusterIP: Invalid value: "10.0.0.14": field is immutable');
    const other = await t.request('PATCH', `${SVCS}/fixed`, { body: { spec: { ports: [{ port: 5353 }] } }, contentType: 'application/merge-patch+json' });
    assert.equal(other.status, 200, other.text);
  });
});

describe('the address default/kubernetes advertises', () => {
  // A listen address of `[::1]` reached the Endpoints with its brackets, which Endpoints
  // validation (kube's ValidateEndpoints) refuses: the server then failed to start.
  it('is the listen IP without brackets, and 127.0.0.1 for a wildcard or a host name', () => {
    assert.equal(advertisedIP('[::1]'), '::1');
    assert.equal(advertisedIP('::1'), '::1');
    assert.equal(advertisedIP('10.1.2.3'), '10.1.2.3');
    for (const wildcard of ['0.0.0.0', '::', '[::]', 'localhost', 'example.com']) assert.equal(advertisedIP(wildcard), '127.0.0.1', wildcard);
  });
});
