/**
 * List and watch authorization at the edges kube-apiserver defines (issue 19, sec9 item 4):
 *
 * - the namespace of a list or watch is the URL's: a `metadata.namespace=` field selector does not
 *   make a cluster-wide list a namespace's (RequestInfo reads only `metadata.name` from it), and a
 *   namespace's list with another namespace's selector selects nothing;
 * - a continue token carries its start key relative to the list's prefix, so one replayed against
 *   another namespace's list (or taken from a cluster-wide list) reads only that namespace, and a
 *   forged one that climbs out of the prefix is a 400;
 * - a watch is authorized when it starts: removing the user's binding does not end a watch
 *   already open (kube's behaviour too: it runs until it times out or the client ends it), while a
 *   new one is refused.
 */
import assert from 'node:assert/strict';
import { request as httpsRequest, type Agent } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { RBAC, W } from './matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from './rbacserver.js';

let rbac: RBACServer;
const widgets = (ns: string) => `/apis/${W}/v1/namespaces/${ns}/widgets`;
const widget = (name: string) => ({ apiVersion: `${W}/v1`, kind: 'Widget', metadata: { name }, spec: { replicas: 1 } });
const namesOf = (list: { items: { metadata: { name: string; namespace: string } }[] }) => list.items.map((i) => `${i.metadata.namespace}/${i.metadata.name}`);

before(async () => {
  rbac = await startRBACServer();
  const admin = rbac.as.admin!;
  for (const ns of ['ns1', 'ns2', 'ns3']) {
    assert.equal((await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } })).status, 201);
  }
  for (const name of ['a1', 'a2', 'a3']) assert.equal((await admin('POST', widgets('ns1'), { body: widget(name) })).status, 201);
  for (const name of ['b1', 'b2', 'b3']) assert.equal((await admin('POST', widgets('ns2'), { body: widget(name) })).status, 201);
  assert.equal((await admin('POST', widgets('ns3'), { body: widget('c1') })).status, 201);
  // frank reads widgets in ns1 and ns2, nowhere else.
  for (const ns of ['ns1', 'ns2']) {
    const role = { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'read-widgets' }, rules: [{ apiGroups: [W], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }] };
    assert.equal((await admin('POST', `/apis/${RBAC}/v1/namespaces/${ns}/roles`, { body: role })).status, 201);
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'frank-reads' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'read-widgets' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'frank' }] };
    assert.equal((await admin('POST', `/apis/${RBAC}/v1/namespaces/${ns}/rolebindings`, { body: binding })).status, 201);
    await waitUntil(async () => (await rbac.as.frank!('GET', widgets(ns))).status === 200, `frank to list widgets in ${ns}`);
  }
});

after(() => rbac?.close());

describe('the namespace of a list is the URL\'s, whatever the selectors say', () => {
  it('a cluster-wide list narrowed to an allowed namespace by fieldSelector is still a cluster-wide list (403)', async () => {
    const frank = rbac.as.frank!;
    for (const query of ['', '?fieldSelector=metadata.namespace%3Dns1', '?labelSelector=x%3Dy', '?fieldSelector=metadata.namespace%3Dns1&watch=true']) {
      const res = await frank('GET', `/apis/${W}/v1/widgets${query}`, { headersOnly: true });
      assert.equal(res.status, 403, `GET /apis/${W}/v1/widgets${query}`);
    }
  });

  it('a namespace\'s list with another namespace\'s field selector selects nothing', async () => {
    const res = await rbac.as.frank!('GET', `${widgets('ns1')}?fieldSelector=metadata.namespace%3Dns3`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.items, []);
  });
});

describe('continue tokens stay inside the list they are replayed against', () => {
  it('a token from ns1\'s list, replayed against ns2\'s, reads ns2 only', async () => {
    const frank = rbac.as.frank!;
    const first = await frank('GET', `${widgets('ns1')}?limit=1`);
    assert.deepEqual(namesOf(first.body), ['ns1/a1']);
    const token = first.body.metadata.continue as string;
    const replayed = await frank('GET', `${widgets('ns2')}?limit=10&continue=${encodeURIComponent(token)}`);
    assert.equal(replayed.status, 200, replayed.text);
    assert.deepEqual(namesOf(replayed.body), ['ns2/b1', 'ns2/b2', 'ns2/b3']);
  });

  it('a token from a cluster-wide list (admin\'s) replayed by frank in ns2 reads nothing of ns1 or ns3', async () => {
    const page = await rbac.as.admin!('GET', `/apis/${W}/v1/widgets?limit=1`);
    assert.deepEqual(namesOf(page.body), ['ns1/a1']);
    const token = page.body.metadata.continue as string;
    assert.equal(JSON.parse(Buffer.from(token, 'base64url').toString()).start, 'ns1/a1\u0000', 'the start key (the last key and a NUL, as kube) is relative to the list\'s prefix');
    const replayed = await rbac.as.frank!('GET', `${widgets('ns2')}?continue=${encodeURIComponent(token)}`);
    assert.equal(replayed.status, 200, replayed.text);
    assert.ok(namesOf(replayed.body).every((n) => n.startsWith('ns2/')), namesOf(replayed.body).join(','));
  });

  it('a forged token whose start key climbs out of the namespace is a 400', async () => {
    const page = await rbac.as.frank!('GET', `${widgets('ns2')}?limit=1`);
    const rv = JSON.parse(Buffer.from(page.body.metadata.continue as string, 'base64url').toString()).rv as number;
    for (const start of ['../ns3/c1', '/../ns3/c1', 'x/../../ns3/c1']) {
      const forged = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');
      const res = await rbac.as.frank!('GET', `${widgets('ns2')}?continue=${forged}`);
      assert.equal(res.status, 400, `${start}: ${res.text}`);
      assert.doesNotMatch(res.text, /c1"/);
    }
  });
});

/** A watch as a stream of events, read as they come. */
function openWatch(path: string, token: string): Promise<{ status: number; events: { type: string; object: { metadata: { name: string } } }[]; close(): void }> {
  const url = new URL(path, rbac.server.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, ca: rbac.server.credentials!.servingCA!, agent: false as unknown as Agent }, (res) => {
      const events: { type: string; object: { metadata: { name: string } } }[] = [];
      let buffered = '';
      res.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        let nl;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line) events.push(JSON.parse(line));
        }
      });
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, events, close: () => req.destroy() });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a watch is authorized when it starts', () => {
  it('an open watch keeps its events after the user\'s binding is removed (as kube); a new watch is 403', async () => {
    const rv = (await rbac.as.frank!('GET', widgets('ns1'))).body.metadata.resourceVersion as string;
    const watch = await openWatch(`${widgets('ns1')}?watch=true&resourceVersion=${rv}`, 'token-frank');
    try {
      assert.equal(watch.status, 200);
      assert.equal((await rbac.as.admin!('DELETE', `/apis/${RBAC}/v1/namespaces/ns1/rolebindings/frank-reads`)).status, 200);
      await waitUntil(async () => (await rbac.as.frank!('GET', widgets('ns1'))).status === 403, 'frank to lose ns1');
      assert.equal((await rbac.as.admin!('POST', widgets('ns1'), { body: widget('a9') })).status, 201);
      await waitUntil(async () => watch.events.some((e) => e.type === 'ADDED' && e.object.metadata.name === 'a9'), 'the open watch to see a9');
      const again = await rbac.as.frank!('GET', `${widgets('ns1')}?watch=true`, { headersOnly: true });
      assert.equal(again.status, 403);
    } finally {
      watch.close();
    }
  });
});
