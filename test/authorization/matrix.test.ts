/**
 * The authorization matrix over HTTPS: users authenticated by static tokens, Roles and
 * ClusterRoles bound at namespace and cluster scope, every verb against every resource and
 * subresource in two namespaces. Each allowed request succeeds; each other one is kube's 403;
 * requests without credentials are 401.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Requester } from './https.js';
import { allCases, expectAllowed, fixtureObjects, forbiddenMessage, perform, policyObjects, USERS, type Case } from './matrix.js';
import { startRBACServer, waitUntil, type RBACServer } from './rbacserver.js';

let rbac: RBACServer;
let as: Record<string, Requester>;
let anonymous: Requester;

before(async () => {
  rbac = await startRBACServer();
  as = rbac.as;
  anonymous = rbac.client({});
  const admin = as.admin!;
  for (const ns of ['ns1', 'ns2']) assert.equal((await admin('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } })).status, 201);
  for (const { path, body } of [...policyObjects(), ...fixtureObjects()]) {
    const r = await admin('POST', path, { body });
    assert.equal(r.status, 201, `${path}: ${r.text}`);
  }
  // The last binding created is frank's: once it applies, the index has caught up.
  await waitUntil(async () => (await as.frank!('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/empty')).status === 200);
});

after(() => rbac?.close());

const label = (user: string, c: Case) => `${user} ${c.verb} ${c.resource}${c.name ? `/${c.name}` : ''}${c.namespace ? ` -n ${c.namespace}` : ''}`;

describe('authorization matrix (HTTPS, token authentication, RBAC)', () => {
  it('allows exactly what each user is granted, and answers everything else with kube\'s 403', async () => {
    const cases = allCases();
    const failures: string[] = [];
    let allowed = 0;
    let denied = 0;
    await Promise.all(
      Object.keys(USERS).map(async (user) => {
        for (const c of cases) {
          const reply = await perform(c, as[user]!, as.admin!);
          if (expectAllowed(user, c)) {
            allowed++;
            if (reply.status < 200 || reply.status > 299) failures.push(`${label(user, c)}: expected success, got ${reply.status} ${reply.text}`);
          } else {
            denied++;
            const message = forbiddenMessage(user, c, reply.name);
            if (reply.status !== 403 || reply.body?.reason !== 'Forbidden' || reply.body?.message !== message) {
              failures.push(`${label(user, c)}: expected 403 "${message}", got ${reply.status} ${reply.text}`);
            }
          }
        }
      }),
    );
    assert.deepEqual(failures, []);
    // Sanity: the matrix exercises both outcomes in volume.
    assert.ok(allowed > 150 && denied > 250, `allowed ${allowed}, denied ${denied}`);
  });

  it('answers requests without credentials, or with an unknown token, with 401', async () => {
    const bogus = rbac.client({ token: 'not-a-token' });
    for (const request of [anonymous, bogus]) {
      for (const path of ['/apis/widgets.example.com/v1/namespaces/ns1/widgets', '/api/v1/namespaces', '/apis/rbac.authorization.k8s.io/v1/clusterroles', '/apis']) {
        const reply = await request('GET', path);
        assert.equal(reply.status, 401, `${path}: ${reply.text}`);
        assert.equal(reply.body?.reason, 'Unauthorized');
      }
    }
  });

  it('lets everyone read health and version (system:public-info-viewer) and the authenticated discover (system:discovery)', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) assert.equal((await anonymous('GET', path)).status, 200, path);
    const erin = as.erin!;
    for (const path of ['/apis', '/api', '/apis/widgets.example.com/v1', '/openapi/v3', '/version']) assert.equal((await erin('GET', path)).status, 200, path);
    const metrics = await erin('GET', '/metrics');
    assert.equal(metrics.status, 403);
    assert.equal(metrics.body.message, 'forbidden: User "erin" cannot get path "/metrics"');
  });
});
