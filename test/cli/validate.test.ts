/**
 * `kgen validate`: offline validation of manifests (multi-document YAML, JSON, Lists) against the
 * generated APIs and CRD manifests, every error as `file:line: <kind>/<name>: <field>: <message>`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const FIXTURES = 'test/fixtures/validate';
const kgen = (args: string[]) => spawnSync(process.execPath, [join(REPO, 'bin/kgen.js'), ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });

test('every error of every object of a multi-document file and a List, at its line, with kube\'s messages', () => {
  const r = kgen(['validate', `${FIXTURES}/widgets.yaml`]);
  assert.equal(r.status, 1, r.stderr);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    `${FIXTURES}/widgets.yaml:8: Widget/Bad_Name: spec.bogus: unknown field "spec.bogus"`,
    `${FIXTURES}/widgets.yaml:8: Widget/Bad_Name: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    `${FIXTURES}/widgets.yaml:8: Widget/Bad_Name: spec.color: Unsupported value: "purple": supported values: "red", "green", "blue"`,
    `${FIXTURES}/widgets.yaml:8: Widget/Bad_Name: spec.replicas: Invalid value: 300: spec.replicas in body should be less than or equal to 100`,
    `${FIXTURES}/widgets.yaml:8: Widget/Bad_Name: <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
    `${FIXTURES}/widgets.yaml:24: Widget/old: spec.size: Invalid value: -1: spec.size in body should be greater than or equal to 0`,
    `${FIXTURES}/widgets.yaml:34: Nope/x: no API for kind "Nope" in version "example.com/v1"`,
  ]);
  assert.match(r.stderr, /^5 objects, 3 invalid\n$/);
});

test('a JSON List; CEL rules run (the wooden part), valid objects print nothing', () => {
  const r = kgen(['validate', `${FIXTURES}/list.json`]);
  assert.equal(r.status, 1);
  assert.equal(r.stdout, `${FIXTURES}/list.json:11: Widget/wooden: spec.parts[0].count: Invalid value: "object": a wooden part has a count of at most 10\n`);
});

test('--crd validates against a CRD manifest without a generated folder; a folder is searched', () => {
  const r = kgen(['validate', FIXTURES, '--generated', '/nonexistent', '--crd', 'generated/crds/widgets.example.com_widgets.yaml']);
  assert.equal(r.status, 1);
  assert.match(r.stdout, /list\.json:11: Widget\/wooden: spec\.parts\[0\]\.count: /);
  assert.match(r.stdout, /widgets\.yaml:34: Nope\/x: no API/);
  // Namespace is not in the CRD: without the generated folder it has no API.
  assert.match(r.stdout, /widgets\.yaml:30: Namespace\/ok: no API for kind "Namespace" in version "v1"/);
});

test('an integer beyond 2^53, which the server refuses rather than round, is an error at its document', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kgen-validate-'));
  try {
    const file = join(dir, 'big.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ok\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: big\nspec:\n  size: 9007199254740993\n');
    const r = kgen(['validate', file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(
      r.stdout,
      `${relative(REPO, file)}:6: cannot parse: yaml: number 9007199254740993 at spec.size cannot be kept exactly: kgen holds numbers as float64, exact for whole numbers up to 2^53 (9007199254740992); it refuses rather than store another number\n`,
    );
    assert.match(r.stderr, /^2 objects, 1 invalid\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('exit 0 when every object is valid', () => {
  const r = kgen(['validate', 'generated/crds/widgets.example.com_widgets.yaml']);
  // The CRD itself is an apiextensions.k8s.io/v1 object of the generated APIs.
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stderr, /^1 object, 0 invalid\n$/);
});

test('a built-in kind\'s Go zero values are defaulted as the server defaults them (the facts of generated/validate/go-fields.json)', () => {
  const r = kgen(['validate', `${FIXTURES}/go-zero-values.yaml`]);
  assert.equal(r.status, 1, r.stdout + r.stderr);
  // `protocol: ""`, `restartPolicy: ""`, `dnsPolicy: ""` are absent for Go: only FOO is refused.
  assert.deepEqual(r.stdout.trim().split('\n'), [`${FIXTURES}/go-zero-values.yaml:34: Service/bad-protocol: spec.ports[0].protocol: Unsupported value: "FOO": supported values: "TCP", "UDP", "SCTP"`]);
  assert.match(r.stderr, /^3 objects, 1 invalid\n$/);
});
