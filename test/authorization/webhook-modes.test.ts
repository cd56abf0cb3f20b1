/**
 * --authorization-mode's union (system:masters first, first Allow or Deny wins, reasons of the
 * rest kept) and the SubjectAccessReview webhook authorizer: the review it sends for resource
 * and non-resource requests, in v1 and v1beta1, its caching by outcome, and failures as no opinion.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../../runtime/api/auth.js';
import { authorizerForModes } from '../../runtime/authorization/modes.js';
import { parseAuthorizationModes, unionAuthorizer } from '../../runtime/authorization/union.js';
import { webhookAuthorizer } from '../../runtime/authorization/webhook.js';
import type { WebhookEndpoint } from '../../runtime/webhook/kubeconfig-endpoint.js';

const attrs = (over: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: { username: 'alice', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/apis/widgets.example.com/v1/namespaces/ns/widgets/w',
  namespace: 'ns',
  apiGroup: 'widgets.example.com',
  apiVersion: 'v1',
  resource: 'widgets',
  subresource: '',
  name: 'w',
  ...over,
});

const fixed = (result: AuthorizationResult, calls: string[], name: string): Authorizer => ({
  authorize: () => {
    calls.push(name);
    return result;
  },
});

describe('authorization modes', () => {
  it("parses kube's comma list and refuses unknown or repeated modes", () => {
    assert.deepEqual(parseAuthorizationModes('RBAC,Webhook'), ['RBAC', 'Webhook']);
    assert.throws(() => parseAuthorizationModes(''), /at least one authorization-mode must be passed/);
    assert.throws(() => parseAuthorizationModes('ABAC'), /authorization-mode "ABAC" is not a valid mode/);
    assert.throws(() => parseAuthorizationModes('AlwaysAllow,AlwaysAllow'), /has mode specified more than once/);
  });

  it('asks in order, stops at the first Allow or Deny, and joins the reasons of no opinion', async () => {
    const calls: string[] = [];
    const union = unionAuthorizer([
      fixed({ decision: 'NoOpinion', reason: 'first has none' }, calls, 'a'),
      { authorize: async () => (calls.push('b'), { decision: 'NoOpinion', reason: 'second has none' }) },
      fixed({ decision: 'Deny', reason: 'third says no' }, calls, 'c'),
      fixed({ decision: 'Allow', reason: '' }, calls, 'd'),
    ]);
    assert.deepEqual(await union.authorize(attrs()), { decision: 'Deny', reason: 'third says no' });
    assert.deepEqual(calls, ['a', 'b', 'c']);
    const none = unionAuthorizer([fixed({ decision: 'NoOpinion', reason: 'x' }, [], 'x'), fixed({ decision: 'NoOpinion', reason: 'y' }, [], 'y')]);
    assert.deepEqual(none.authorize(attrs()), { decision: 'NoOpinion', reason: 'x, y' });
  });

  it('always allows system:masters first, even under AlwaysDeny', () => {
    const deny = authorizerForModes({ modes: ['AlwaysDeny'] }, undefined);
    assert.equal((deny.authorize(attrs({ user: { username: 'root', groups: ['system:masters'] } })) as AuthorizationResult).decision, 'Allow');
    assert.deepEqual(deny.authorize(attrs()), { decision: 'Deny', reason: 'Everything is forbidden.' });
    assert.equal((authorizerForModes({ modes: ['AlwaysAllow'] }, undefined).authorize(attrs()) as AuthorizationResult).decision, 'Allow');
    assert.throws(() => authorizerForModes({ modes: ['Webhook'] }, undefined), /requires --authorization-webhook-config-file/);
    assert.throws(() => authorizerForModes({ modes: ['RBAC'] }, undefined), /RBAC kinds/);
  });
});

describe('webhook authorizer', () => {
  async function withWebhook(answer: (spec: any) => unknown, fn: (endpoint: WebhookEndpoint, reviews: any[]) => Promise<void>) {
    const reviews: any[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const review = JSON.parse(body);
        reviews.push(review);
        const status = answer(review.spec);
        if (status === 'fail') res.writeHead(503).end();
        else res.end(JSON.stringify({ status }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/authz`);
    try {
      await fn({ file: 'test', url, insecureSkipTLSVerify: false }, reviews);
    } finally {
      server.close();
    }
  }

  it('sends the v1 review of a resource request and maps allowed, denied and neither', async () => {
    await withWebhook(
      (spec) => (spec.resourceAttributes.verb === 'get' ? { allowed: true } : spec.resourceAttributes.verb === 'delete' ? { allowed: false, denied: true, reason: 'no deletes' } : { allowed: false, reason: 'dunno' }),
      async (endpoint, reviews) => {
        const authz = webhookAuthorizer({ endpoint });
        assert.deepEqual(await authz.authorize(attrs()), { decision: 'Allow', reason: '' });
        assert.deepEqual(reviews[0], {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          metadata: { creationTimestamp: null },
          spec: {
            user: 'alice',
            groups: ['dev', 'system:authenticated'],
            resourceAttributes: { namespace: 'ns', verb: 'get', group: 'widgets.example.com', version: 'v1', resource: 'widgets', subresource: '', name: 'w' },
          },
          status: { allowed: false },
        });
        assert.deepEqual(await authz.authorize(attrs({ verb: 'delete' })), { decision: 'Deny', reason: 'no deletes' });
        assert.deepEqual(await authz.authorize(attrs({ verb: 'update' })), { decision: 'NoOpinion', reason: 'dunno' });
      },
    );
  });

  it('sends non-resource attributes, and v1beta1 names the groups `group`', async () => {
    await withWebhook(
      () => ({ allowed: true }),
      async (endpoint, reviews) => {
        await webhookAuthorizer({ endpoint, version: 'v1beta1' }).authorize(attrs({ isResourceRequest: false, path: '/metrics', verb: 'get' }));
        assert.equal(reviews[0].apiVersion, 'authorization.k8s.io/v1beta1');
        assert.deepEqual(reviews[0].spec, { user: 'alice', group: ['dev', 'system:authenticated'], nonResourceAttributes: { path: '/metrics', verb: 'get' } });
      },
    );
  });

  it('caches allowed answers for the authorized TTL and others for the unauthorized TTL; failures are not cached', async () => {
    let now = 0;
    let failing = false;
    await withWebhook(
      (spec) => (failing ? 'fail' : { allowed: spec.resourceAttributes.verb === 'get' }),
      async (endpoint, reviews) => {
        const authz = webhookAuthorizer({ endpoint, authorizedTTLMs: 1000, unauthorizedTTLMs: 100, now: () => now });
        await authz.authorize(attrs());
        await authz.authorize(attrs({ verb: 'list' }));
        now = 50;
        await authz.authorize(attrs());
        await authz.authorize(attrs({ verb: 'list' }));
        assert.equal(reviews.length, 2, 'both cached');
        now = 150;
        await authz.authorize(attrs());
        await authz.authorize(attrs({ verb: 'list' }));
        assert.equal(reviews.length, 3, 'only the refusal expired');
        failing = true;
        const result = await authz.authorize(attrs({ verb: 'patch' }));
        assert.equal(result.decision, 'NoOpinion');
        assert.match(result.reason, /^error contacting the authorization webhook: Post ".*\/authz": the server responded with the status code 503$/);
        failing = false;
        assert.equal((await authz.authorize(attrs({ verb: 'patch' }))).reason, '', 'the failure was not cached');
      },
    );
  });

  it('a cached allow answers only the same attributes: every verb, resource, namespace, name, user, group and extra asks again', async () => {
    // Allows only the first request it sees: a later one answered from the cache would be allowed too.
    let first = true;
    await withWebhook(
      () => {
        const allowed = first;
        first = false;
        return { allowed };
      },
      async (endpoint, reviews) => {
        const authz = webhookAuthorizer({ endpoint, authorizedTTLMs: 60_000, unauthorizedTTLMs: 60_000, now: () => 0 });
        assert.equal((await authz.authorize(attrs())).decision, 'Allow');
        assert.equal((await authz.authorize(attrs())).decision, 'Allow', 'the same attributes: cached');
        assert.equal(reviews.length, 1);
        const others: Partial<AuthorizationAttributes>[] = [
          { verb: 'delete' },
          { namespace: 'kube-system' },
          { namespace: '' },
          { apiGroup: '' },
          { apiVersion: 'v2' },
          { resource: 'secrets' },
          { subresource: 'status' },
          { name: 'other' },
          { name: '' },
          { user: { username: 'mallory', groups: ['dev', 'system:authenticated'] } },
          { user: { username: 'alice', groups: ['dev', 'system:masters'] } },
          { user: { username: 'alice', groups: ['dev', 'system:authenticated'], uid: 'u2' } },
          { user: { username: 'alice', groups: ['dev', 'system:authenticated'], extra: { scopes: ['all'] } } },
          { isResourceRequest: false, path: '/apis/widgets.example.com/v1/namespaces/ns/widgets/w' },
        ];
        for (const over of others) {
          assert.equal((await authz.authorize(attrs(over))).decision, 'NoOpinion', JSON.stringify(over));
        }
        assert.equal(reviews.length, 1 + others.length, 'each asked the webhook');
        // Non-resource paths are keyed by path and verb.
        const root = { isResourceRequest: false, path: '/healthz' } as const;
        await authz.authorize(attrs({ ...root }));
        await authz.authorize(attrs({ ...root, path: '/metrics' }));
        await authz.authorize(attrs({ ...root, verb: 'post' }));
        assert.equal(reviews.length, 4 + others.length);
      },
    );
  });
});
