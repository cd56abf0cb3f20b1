/**
 * Which webhooks a request reaches (kube's webhook/predicates/rules, namespace and object
 * matchers): operations, groups, versions, resources and subresources, scope, namespaceSelector
 * over the namespace's labels, objectSelector over the new or old object's labels.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANONYMOUS_USER, type AdmissionAttributes } from '../../runtime/api/auth.js';
import type { KubeObject } from '../../runtime/api/meta.js';
import { newNotFound, StatusError } from '../../runtime/api/status.js';
import { ruleMatches, selectorMatches, shouldCallHook } from '../../runtime/admission/webhook/matcher.js';
import type { RuleWithOperations, Webhook } from '../../runtime/admission/webhook/types.js';

function attrs(overrides: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    user: ANONYMOUS_USER,
    namespace: 'default',
    name: 'w1',
    resource: { group: 'widgets.example.com', version: 'v1', resource: 'widgets' },
    subresource: '',
    kind: { group: 'widgets.example.com', version: 'v1', kind: 'Widget' },
    dryRun: false,
    ...overrides,
  };
}

function obj(labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'widgets.example.com/v1', kind: 'Widget', metadata: { name: 'w1', ...(labels ? { labels } : {}) } };
}

const widgetsRule: RuleWithOperations = { operations: ['CREATE'], apiGroups: ['widgets.example.com'], apiVersions: ['v1'], resources: ['widgets'] };

describe('webhook rules', () => {
  it('match operations, groups and versions exactly or by *', () => {
    assert.equal(ruleMatches(widgetsRule, attrs()), true);
    assert.equal(ruleMatches(widgetsRule, attrs({ operation: 'UPDATE' })), false);
    assert.equal(ruleMatches({ ...widgetsRule, operations: ['*'] }, attrs({ operation: 'DELETE' })), true);
    assert.equal(ruleMatches({ ...widgetsRule, apiGroups: ['other.example.com'] }, attrs()), false);
    assert.equal(ruleMatches({ ...widgetsRule, apiGroups: ['*'] }, attrs()), true);
    assert.equal(ruleMatches({ ...widgetsRule, apiVersions: ['v2'] }, attrs()), false);
    assert.equal(ruleMatches({ ...widgetsRule, apiVersions: ['*'] }, attrs()), true);
  });

  it('match subresources only when named: widgets/status, */status, widgets/*, */*', () => {
    const status = attrs({ operation: 'CREATE', subresource: 'status' });
    assert.equal(ruleMatches(widgetsRule, status), false, 'a bare resource does not match its subresources');
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['*'] }, status), false, '* is every resource, no subresource');
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['widgets/status'] }, status), true);
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['*/status'] }, status), true);
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['*/scale'] }, status), false);
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['widgets/*'] }, status), true);
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['*/*'] }, status), true);
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['widgets/*'] }, attrs()), true, 'widgets/* includes the resource itself');
    assert.equal(ruleMatches({ ...widgetsRule, resources: ['widgets/status'] }, attrs()), false);
  });

  it('match scope: Namespaced, Cluster (namespace objects are cluster-scoped), *', () => {
    const cluster = attrs({ namespace: '', resource: { group: 'widgets.example.com', version: 'v1', resource: 'gadgets' } });
    const ns = attrs({ namespace: 'team-a', name: 'team-a', resource: { group: '', version: 'v1', resource: 'namespaces' } });
    const any: RuleWithOperations = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
    assert.equal(ruleMatches({ ...any, scope: 'Namespaced' }, attrs()), true);
    assert.equal(ruleMatches({ ...any, scope: 'Namespaced' }, cluster), false);
    assert.equal(ruleMatches({ ...any, scope: 'Namespaced' }, ns), false);
    assert.equal(ruleMatches({ ...any, scope: 'Cluster' }, cluster), true);
    assert.equal(ruleMatches({ ...any, scope: 'Cluster' }, ns), true);
    assert.equal(ruleMatches({ ...any, scope: 'Cluster' }, attrs()), false);
    assert.equal(ruleMatches({ ...any, scope: '*' }, cluster), true);
  });
});

describe('label selectors', () => {
  it('match matchLabels and every matchExpressions operator; empty matches everything', () => {
    const labels = { tier: 'web', env: 'prod' };
    assert.equal(selectorMatches(undefined, labels), true);
    assert.equal(selectorMatches({}, undefined), true);
    assert.equal(selectorMatches({ matchLabels: { tier: 'web' } }, labels), true);
    assert.equal(selectorMatches({ matchLabels: { tier: 'db' } }, labels), false);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'staging'] }] }, labels), true);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, labels), false);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] }, labels), true);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }, labels), true, 'NotIn matches an absent key');
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, labels), true);
    assert.equal(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels), false);
    assert.equal(selectorMatches({ matchLabels: { tier: 'web' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, labels), false);
  });
});

describe('shouldCallHook', () => {
  const base: Webhook = { name: 'w.example.com', clientConfig: { url: 'https://127.0.0.1:1/' }, rules: [{ ...widgetsRule, operations: ['*'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] };
  const namespaceLabels = async (name: string): Promise<Record<string, string>> => {
    if (name === 'labelled') return { webhooks: 'on' };
    if (name === 'default') return {};
    throw newNotFound({ group: '', resource: 'namespaces' }, name);
  };

  it('selects namespaces by their labels; cluster-scoped requests are never exempted', async () => {
    const hook = { ...base, namespaceSelector: { matchLabels: { webhooks: 'on' } } };
    assert.equal(await shouldCallHook(hook, attrs({ namespace: 'labelled' }), namespaceLabels), true);
    assert.equal(await shouldCallHook(hook, attrs({ namespace: 'default' }), namespaceLabels), false);
    const clusterRule = { ...hook, rules: [{ ...widgetsRule, resources: ['gadgets'] }] };
    const gadget = attrs({ namespace: '', resource: { group: 'widgets.example.com', version: 'v1', resource: 'gadgets' } });
    assert.equal(await shouldCallHook(clusterRule, gadget, namespaceLabels), true);
  });

  it('uses the namespace object itself for namespace requests, and answers 404 for a missing namespace', async () => {
    const hook: Webhook = { ...base, rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }], namespaceSelector: { matchLabels: { webhooks: 'on' } } };
    const nsAttrs = (labels?: Record<string, string>) =>
      attrs({ namespace: 'new-ns', name: 'new-ns', resource: { group: '', version: 'v1', resource: 'namespaces' }, kind: { group: '', version: 'v1', kind: 'Namespace' }, object: obj(labels) });
    assert.equal(await shouldCallHook(hook, nsAttrs({ webhooks: 'on' }), namespaceLabels), true);
    assert.equal(await shouldCallHook(hook, nsAttrs(), namespaceLabels), false);
    const selecting = { ...base, namespaceSelector: { matchLabels: { webhooks: 'on' } } };
    await assert.rejects(shouldCallHook(selecting, attrs({ namespace: 'missing' }), namespaceLabels), (err: unknown) => err instanceof StatusError && err.code === 404);
  });

  it('selects objects by the labels of the new or the old object', async () => {
    const hook = { ...base, objectSelector: { matchLabels: { audited: 'yes' } } };
    assert.equal(await shouldCallHook(hook, attrs({ object: obj({ audited: 'yes' }) }), namespaceLabels), true);
    assert.equal(await shouldCallHook(hook, attrs({ object: obj() }), namespaceLabels), false);
    assert.equal(await shouldCallHook(hook, attrs({ operation: 'UPDATE', object: obj(), oldObject: obj({ audited: 'yes' }) }), namespaceLabels), true);
    assert.equal(await shouldCallHook(hook, attrs({ operation: 'DELETE', oldObject: obj({ audited: 'yes' }) }), namespaceLabels), true);
    assert.equal(await shouldCallHook(hook, attrs({ operation: 'DELETE' }), namespaceLabels), false);
  });

  it('fails with an internal error on a selector that is not one, unless the other selector rules the webhook out', async () => {
    const bad = { matchExpressions: [{ key: 'env', operator: 'In' as const, values: [] }] };
    const internal = (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.equal(err.code, 500);
      assert.equal(err.reason, 'InternalError');
      assert.equal(err.message, "Internal error occurred: values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
      return true;
    };
    await assert.rejects(shouldCallHook({ ...base, namespaceSelector: bad }, attrs(), namespaceLabels), internal);
    await assert.rejects(shouldCallHook({ ...base, objectSelector: bad }, attrs({ object: obj() }), namespaceLabels), internal);
    // kube's ShouldCallHook: a selector that does not match (without error) wins over the other's error.
    assert.equal(await shouldCallHook({ ...base, namespaceSelector: bad, objectSelector: { matchLabels: { audited: 'yes' } } }, attrs({ object: obj() }), namespaceLabels), false);
    assert.equal(await shouldCallHook({ ...base, namespaceSelector: { matchLabels: { webhooks: 'on' } }, objectSelector: bad }, attrs(), namespaceLabels), false);
    await assert.rejects(shouldCallHook({ ...base, objectSelector: { matchExpressions: [{ key: 'env', operator: 'Gt' as 'In', values: ['1'] }] } }, attrs(), namespaceLabels), /"Gt" is not a valid label selector operator/);
  });

  it('never sends webhook configurations to webhooks', async () => {
    const everything: Webhook = { ...base, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] };
    const config = attrs({
      namespace: '',
      resource: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations' },
    });
    assert.equal(await shouldCallHook(everything, config, namespaceLabels), false);
    assert.equal(await shouldCallHook(everything, attrs(), namespaceLabels), true);
  });
});
