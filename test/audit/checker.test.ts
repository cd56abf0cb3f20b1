import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newPolicyRuleEvaluator, parsePolicy, pathMatches, ruleMatches, type AuditAttributes, type PolicyRule } from '../../runtime/audit/index.js';

const alice = { username: 'alice', groups: ['devs', 'system:authenticated'] };

function resource(over: Partial<AuditAttributes> = {}): AuditAttributes {
  return {
    user: alice,
    verb: 'get',
    isResourceRequest: true,
    path: '/apis/widgets.example.com/v1/namespaces/default/widgets/w1',
    namespace: 'default',
    apiGroup: 'widgets.example.com',
    resource: 'widgets',
    subresource: '',
    name: 'w1',
    ...over,
  };
}

function nonResource(path: string, over: Partial<AuditAttributes> = {}): AuditAttributes {
  return { user: alice, verb: 'get', isResourceRequest: false, path, namespace: '', apiGroup: '', resource: '', subresource: '', name: '', ...over };
}

const rule = (r: Omit<PolicyRule, 'level'>): PolicyRule => ({ level: 'Metadata', ...r });

describe('audit policy rule matching', () => {
  it('a rule with no selectors matches everything', () => {
    assert.ok(ruleMatches(rule({}), resource()));
    assert.ok(ruleMatches(rule({}), nonResource('/healthz')));
  });

  it('users and userGroups', () => {
    assert.ok(ruleMatches(rule({ users: ['bob', 'alice'] }), resource()));
    assert.ok(!ruleMatches(rule({ users: ['bob'] }), resource()));
    assert.ok(ruleMatches(rule({ userGroups: ['devs'] }), resource()));
    assert.ok(!ruleMatches(rule({ userGroups: ['ops'] }), resource()));
    assert.ok(!ruleMatches(rule({ users: ['alice'] }), resource({ user: undefined })), 'no user matches no users rule');
    assert.ok(!ruleMatches(rule({ userGroups: ['devs'] }), resource({ user: undefined })));
  });

  it('verbs', () => {
    assert.ok(ruleMatches(rule({ verbs: ['get', 'list'] }), resource()));
    assert.ok(!ruleMatches(rule({ verbs: ['create'] }), resource()));
    assert.ok(ruleMatches(rule({ verbs: ['get'] }), nonResource('/version')));
  });

  it('namespaces; "" is cluster scope; non-resource requests never match', () => {
    assert.ok(ruleMatches(rule({ namespaces: ['default'] }), resource()));
    assert.ok(!ruleMatches(rule({ namespaces: ['kube-system'] }), resource()));
    assert.ok(ruleMatches(rule({ namespaces: [''] }), resource({ namespace: '', resource: 'gadgets' })));
    assert.ok(!ruleMatches(rule({ namespaces: [''] }), nonResource('/healthz')));
  });

  it('resources by group, name, subresource and wildcards', () => {
    const gr = (resources?: string[], resourceNames?: string[], group = 'widgets.example.com') => rule({ resources: [{ group, resources, resourceNames }] });
    const status = resource({ subresource: 'status' });
    const scale = resource({ subresource: 'scale' });
    assert.ok(ruleMatches(gr(undefined), resource()), 'a group with no resources matches all of it');
    assert.ok(!ruleMatches(gr(undefined, undefined, ''), resource()), 'the core group is not widgets.example.com');
    assert.ok(ruleMatches(gr(['widgets']), resource()));
    assert.ok(!ruleMatches(gr(['widgets']), status), 'a bare resource does not match its subresources');
    assert.ok(ruleMatches(gr(['widgets/status']), status));
    assert.ok(!ruleMatches(gr(['widgets/status']), resource()));
    assert.ok(ruleMatches(gr(['*']), status), '* matches subresources too');
    assert.ok(ruleMatches(gr(['*/scale']), scale));
    assert.ok(!ruleMatches(gr(['*/scale']), status));
    assert.ok(!ruleMatches(gr(['*/scale']), resource()));
    assert.ok(ruleMatches(gr(['widgets/*']), status));
    assert.ok(ruleMatches(gr(['widgets/*']), resource()));
    assert.ok(!ruleMatches(gr(['gadgets/*']), status));
    assert.ok(ruleMatches(gr(['widgets'], ['w1', 'w2']), resource()));
    assert.ok(!ruleMatches(gr(['widgets'], ['w2']), resource()));
    assert.ok(!ruleMatches(gr(['widgets']), nonResource('/apis')));
    const core = rule({ resources: [{ resources: ['pods'] }] });
    assert.ok(ruleMatches(core, resource({ apiGroup: '', resource: 'pods' })), 'an absent group is the core group');
  });

  it('nonResourceURLs with exact, prefix and * specs; resource requests never match', () => {
    assert.ok(pathMatches('/healthz', '/healthz'));
    assert.ok(pathMatches('/healthz/ping', '/healthz*'));
    assert.ok(pathMatches('/healthz', '/healthz*'));
    assert.ok(!pathMatches('/healthz/ping', '/healthz'));
    assert.ok(pathMatches('/anything', '*'));
    assert.ok(ruleMatches(rule({ nonResourceURLs: ['/version', '/openapi/*'] }), nonResource('/openapi/v3/apis')));
    assert.ok(!ruleMatches(rule({ nonResourceURLs: ['/version'] }), nonResource('/versions')));
    assert.ok(!ruleMatches(rule({ nonResourceURLs: ['*'] }), resource()));
  });

  it('the first matching rule decides; no match is None', () => {
    const evaluator = newPolicyRuleEvaluator(
      parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: None
    namespaces: [quiet]
  - level: RequestResponse
    verbs: [create]
    resources: [{group: widgets.example.com}]
  - level: Metadata
    resources: [{group: widgets.example.com}]
  - level: Request
    nonResourceURLs: [/api*]
`),
    );
    assert.equal(evaluator.evaluatePolicyRule(resource({ namespace: 'quiet', verb: 'create' })).level, 'None');
    assert.equal(evaluator.evaluatePolicyRule(resource({ verb: 'create' })).level, 'RequestResponse');
    assert.equal(evaluator.evaluatePolicyRule(resource({ verb: 'get' })).level, 'Metadata');
    assert.equal(evaluator.evaluatePolicyRule(nonResource('/apis/widgets.example.com')).level, 'Request');
    assert.equal(evaluator.evaluatePolicyRule(nonResource('/healthz')).level, 'None');
    assert.equal(evaluator.evaluatePolicyRule(resource({ apiGroup: '', resource: 'namespaces' })).level, 'None');
  });

  it('unions the policy omitStages with the rule’s, and lets a rule override omitManagedFields', () => {
    const evaluator = newPolicyRuleEvaluator(
      parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: Request
    verbs: [create]
    omitStages: [ResponseStarted, RequestReceived]
    omitManagedFields: false
  - level: Metadata
    verbs: [get]
`),
    );
    const create = evaluator.evaluatePolicyRule(resource({ verb: 'create' }));
    assert.deepEqual([...create.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(create.omitManagedFields, false);
    const get = evaluator.evaluatePolicyRule(resource());
    assert.deepEqual(get.omitStages, ['RequestReceived']);
    assert.equal(get.omitManagedFields, true);
    const none = evaluator.evaluatePolicyRule(resource({ verb: 'delete' }));
    assert.deepEqual(none, { level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true });
  });
});
