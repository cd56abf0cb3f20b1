import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AuditPolicyError, loadPolicyFile, parsePolicy } from '../../runtime/audit/index.js';

const dir = mkdtempSync(join(tmpdir(), 'kgen-audit-policy-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function errorsOf(text: string): readonly string[] {
  try {
    parsePolicy(text);
  } catch (err) {
    assert.ok(err instanceof AuditPolicyError, String(err));
    return err.errors;
  }
  assert.fail('expected the policy to be rejected');
}

describe('audit policy loading', () => {
  it('loads a YAML policy with every selector', () => {
    const policy = parsePolicy(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
omitManagedFields: true
rules:
  - level: None
    users: ["system:kube-proxy"]
    verbs: [watch]
    resources:
      - group: ""
        resources: [endpoints, services, services/status]
  - level: Metadata
    userGroups: [system:authenticated]
    namespaces: [kube-system]
  - level: Request
    nonResourceURLs: [/healthz*, /version]
    omitStages: [ResponseComplete]
  - level: RequestResponse
    omitManagedFields: false
    resources:
      - group: widgets.example.com
        resources: ["*", "*/scale", "widgets/status"]
        resourceNames: [a]
`);
    assert.equal(policy.rules.length, 4);
    assert.deepEqual(policy.omitStages, ['RequestReceived']);
    assert.deepEqual(policy.rules[3].resources?.[0].resources, ['*', '*/scale', 'widgets/status']);
  });

  it('loads JSON and warns for v1beta1', () => {
    const warnings: string[] = [];
    const policy = parsePolicy(JSON.stringify({ apiVersion: 'audit.k8s.io/v1beta1', kind: 'Policy', rules: [{ level: 'Metadata' }] }), {
      warn: (m) => warnings.push(m),
    });
    assert.equal(policy.rules[0].level, 'Metadata');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /"audit.k8s.io\/v1beta1" is deprecated/);
  });

  it('loads from a file and names the file in errors', () => {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    assert.equal(loadPolicyFile(good).rules[0].level, 'Metadata');
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Everything\n');
    assert.throws(() => loadPolicyFile(bad), (err: Error) => err.message.includes(bad) && err.message.includes('rules[0].level: Unsupported value: "Everything"'));
    assert.throws(() => loadPolicyFile(join(dir, 'missing.yaml')), /invalid audit policy .*missing.yaml.*failed to read file/);
  });

  it('rejects undecodable and empty documents', () => {
    assert.match(errorsOf('rules: [')[0], /^failed decoding: /);
    assert.match(errorsOf('')[0], /^failed decoding: /);
    assert.match(errorsOf('a: 1\n---\nb: 2\n')[0], /^failed decoding: /);
    assert.deepEqual(errorsOf('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n'), ['loaded illegal policy with 0 rules']);
    assert.deepEqual(errorsOf('apiVersion: audit.k8s.io/v1\nkind: Policy\n'), ['loaded illegal policy with 0 rules']);
  });

  it('rejects a wrong apiVersion or kind', () => {
    assert.deepEqual(errorsOf('apiVersion: v1\nkind: ConfigMap\nrules: [{level: None}]\n'), [
      'kind: Unsupported value: "ConfigMap": supported values: "Policy"',
      'apiVersion: Unsupported value: "v1": supported values: "audit.k8s.io/v1", "audit.k8s.io/v1beta1"',
    ]);
  });

  it('collects every rule problem with its field path, as kube validation does', () => {
    const errors = errorsOf(`
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [Sometime]
rules:
  - {}
  - level: Metadata
    nonResourceURLs: [healthz, /a*b]
  - level: Metadata
    nonResourceURLs: [/ok]
    namespaces: [default]
  - level: Request
    resources:
      - group: Bad_Group/v1
      - resourceNames: [x]
  - level: Request
    userGroup: [oops]
    verbs: get
    omitManagedFields: "yes"
`);
    assert.deepEqual(errors, [
      'omitStages[0]: Invalid value: "Sometime": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
      'rules[0].level: Required value',
      `rules[1].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
      `rules[1].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
      'rules[2].nonResourceURLs: Invalid value: ["/ok"]: rules cannot apply to both regular resources and non-resource URLs',
      `rules[3].resources[0].group: Invalid value: "Bad_Group/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
      'rules[3].resources[1].resourceNames: Invalid value: ["x"]: using resourceNames requires at least one resource',
      'rules[4].userGroup: Unknown field',
      'rules[4].verbs: Invalid value: must be a list of strings',
      'rules[4].omitManagedFields: Invalid value: "yes": must be a boolean',
    ]);
  });

  it('puts all problems in one startup error message', () => {
    assert.throws(
      () => parsePolicy('apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: x\n- level: y\n', { source: 'policy.yaml' }),
      (err: Error) =>
        err.message ===
        'invalid audit policy policy.yaml: [rules[0].level: Unsupported value: "x": supported values: "None", "Metadata", "Request", "RequestResponse", rules[1].level: Unsupported value: "y": supported values: "None", "Metadata", "Request", "RequestResponse"]',
    );
  });

  it('refuses YAML alias bombs', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(',')}]`);
    assert.match(errorsOf(bomb.join('\n'))[0], /^failed decoding: /);
  });
});
