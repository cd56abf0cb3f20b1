import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { appliesToUser, ruleAllows, type PolicyRule } from '../../runtime/authorization/index.js';
import { G, pathAttrs, resourceAttrs, SA, U, user } from './helpers.js';

const alice = user('alice', 'dev');
const allows = (rule: PolicyRule, ...args: Parameters<typeof resourceAttrs> extends [unknown, ...infer R] ? R : never) => ruleAllows(resourceAttrs(alice, ...args), rule);

describe('PolicyRule matching (rbac.RuleAllows)', () => {
  const widgets: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'] };

  it('matches verb, group and resource exactly', () => {
    assert.equal(allows(widgets, 'get', 'widgets'), true);
    assert.equal(allows(widgets, 'list', 'widgets'), true);
    assert.equal(allows(widgets, 'delete', 'widgets'), false);
    assert.equal(allows(widgets, 'get', 'gadgets'), false);
    assert.equal(allows(widgets, 'get', 'widgets', { group: 'other.example.com' }), false);
  });

  it('does not let a resource rule cover its subresources', () => {
    assert.equal(allows(widgets, 'get', 'widgets', { subresource: 'status' }), false);
    assert.equal(allows({ ...widgets, resources: ['widgets/status'] }, 'get', 'widgets', { subresource: 'status' }), true);
    assert.equal(allows({ ...widgets, resources: ['widgets/status'] }, 'get', 'widgets'), false);
  });

  it('matches */subresource for every resource, and * for everything', () => {
    const scale: PolicyRule = { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] };
    assert.equal(allows(scale, 'update', 'widgets', { subresource: 'scale' }), true);
    assert.equal(allows(scale, 'update', 'gadgets', { subresource: 'scale', group: 'x.io' }), true);
    assert.equal(allows(scale, 'update', 'widgets', { subresource: 'status' }), false);
    assert.equal(allows(scale, 'update', 'widgets'), false);
    const all: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
    assert.equal(allows(all, 'deletecollection', 'widgets', { subresource: 'status', group: '' }), true);
  });

  it('limits by resourceNames; an unnamed request (list, create) does not match a named rule', () => {
    const named: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['widgets.example.com'], resources: ['widgets'], resourceNames: ['w1'] };
    assert.equal(allows(named, 'get', 'widgets', { name: 'w1' }), true);
    assert.equal(allows(named, 'get', 'widgets', { name: 'w2' }), false);
    assert.equal(allows(named, 'list', 'widgets'), false);
  });

  it('matches the core group only by ""', () => {
    const core: PolicyRule = { verbs: ['get'], apiGroups: [''], resources: ['namespaces'] };
    assert.equal(allows(core, 'get', 'namespaces', { group: '' }), true);
    assert.equal(allows(core, 'get', 'namespaces', { group: 'widgets.example.com' }), false);
  });

  it('matches non-resource URLs exactly, by trailing * prefix, or *', () => {
    const rule: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
    assert.equal(ruleAllows(pathAttrs(alice, 'get', '/healthz'), rule), true);
    assert.equal(ruleAllows(pathAttrs(alice, 'get', '/healthz/ping'), rule), false);
    assert.equal(ruleAllows(pathAttrs(alice, 'get', '/apis/widgets.example.com/v1'), rule), true);
    assert.equal(ruleAllows(pathAttrs(alice, 'get', '/apis'), rule), false);
    assert.equal(ruleAllows(pathAttrs(alice, 'post', '/healthz'), rule), false);
    assert.equal(ruleAllows(pathAttrs(alice, 'post', '/anything'), { verbs: ['*'], nonResourceURLs: ['*'] }), true);
    // A resource rule never allows a non-resource request, and the other way round.
    assert.equal(ruleAllows(pathAttrs(alice, 'get', '/healthz'), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }), false);
    assert.equal(allows({ verbs: ['*'], nonResourceURLs: ['*'] }, 'get', 'widgets'), false);
  });
});

describe('Subject matching (appliesToUser)', () => {
  it('matches users by name and groups by membership', () => {
    assert.equal(appliesToUser(alice, U('alice'), ''), true);
    assert.equal(appliesToUser(alice, U('bob'), ''), false);
    assert.equal(appliesToUser(alice, G('dev'), ''), true);
    assert.equal(appliesToUser(alice, G('system:authenticated'), ''), true);
    assert.equal(appliesToUser(alice, G('ops'), ''), false);
  });

  it('matches service accounts by username, defaulting to the binding namespace', () => {
    const sa = { username: 'system:serviceaccount:ns1:builder', groups: ['system:serviceaccounts'] };
    assert.equal(appliesToUser(sa, SA('builder', 'ns1'), ''), true);
    assert.equal(appliesToUser(sa, SA('builder'), 'ns1'), true);
    assert.equal(appliesToUser(sa, SA('builder'), 'ns2'), false);
    assert.equal(appliesToUser(sa, SA('builder'), ''), false);
    assert.equal(appliesToUser(sa, { kind: 'Robot', name: 'builder' }, 'ns1'), false);
  });
});
