/**
 * The aggregated-server manifests emitter, a pure function of the checked model: an APIService
 * per served group/version (preferred version first), none for Kubernetes' groups, parameters
 * in the objects, roles for the served kinds, and nothing for a model without groups of its own.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { compile, emitAggregatedManifests } from '../../generator/index.js';

const APIS = fileURLToPath(new URL('../../apis/', import.meta.url));
const model = compile({ apisDir: APIS }).model;
const docs = (content: string) => parseAllDocuments(content).map((d) => d.toJS());

describe('emitAggregatedManifests', () => {
  const files = new Map(emitAggregatedManifests(model, { name: 'examples', image: 'img:1' }).map((f) => [f.path, f.content]));

  it('has an APIService per served group/version, none for kgen\'s built-in groups', () => {
    const services = docs(files.get('apiservices.yaml')!);
    assert.deepEqual(
      services.map((s) => [s.metadata.name, s.spec.versionPriority, s.spec.service]),
      [
        ['v1beta1.ops.example.org', 15, { name: 'examples', namespace: 'examples', port: 443 }],
        ['v1.widgets.example.com', 15, { name: 'examples', namespace: 'examples', port: 443 }],
        ['v1beta1.widgets.example.com', 14, { name: 'examples', namespace: 'examples', port: 443 }],
      ],
    );
  });

  it('binds the ServiceAccount to the delegation roles and runs kgen serve --aggregated', () => {
    const [delegator] = docs(files.get('auth-delegator.yaml')!);
    assert.deepEqual(delegator.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' });
    assert.deepEqual(delegator.subjects, [{ kind: 'ServiceAccount', name: 'examples', namespace: 'examples' }]);
    const [reader] = docs(files.get('auth-reader.yaml')!);
    assert.equal(reader.metadata.namespace, 'kube-system');
    assert.equal(reader.roleRef.name, 'extension-apiserver-authentication-reader');
    const [deployment] = docs(files.get('deployment.yaml')!);
    const container = deployment.spec.template.spec.containers[0];
    assert.equal(container.image, 'img:1');
    assert.deepEqual(container.args.slice(0, 3), ['serve', '/app/generated', '--aggregated']);
    assert.equal(deployment.spec.template.spec.serviceAccountName, 'examples');
  });

  it('aggregates the served kinds into view, edit and admin', () => {
    const [view, edit] = docs(files.get('rbac.yaml')!);
    assert.equal(view.metadata.labels['rbac.authorization.k8s.io/aggregate-to-view'], 'true');
    assert.deepEqual(view.rules.map((r: { apiGroups: string[] }) => r.apiGroups[0]), ['ops.example.org', 'widgets.example.com']);
    assert.ok(view.rules[1].resources.includes('widgets/status'));
    assert.ok(!edit.rules[1].resources.includes('widgets/status'));
    assert.ok(edit.rules[1].resources.includes('widgets/scale'));
  });

  it('emits nothing for a model of Kubernetes groups alone', () => {
    const builtinsOnly = { groups: model.groups.filter((g) => g.name === '' || g.name.endsWith('.k8s.io')) };
    assert.deepEqual(emitAggregatedManifests(builtinsOnly), []);
  });
});
